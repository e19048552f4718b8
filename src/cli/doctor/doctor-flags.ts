/** Flags of `uas doctor`. */
export interface DoctorFlags {
  port: number;
  json?: boolean;
}
