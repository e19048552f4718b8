/** Options of `uas check`, as commander parses them. */
export interface CheckFlags {
  url?: string;
  adminToken?: string;
  journal?: string;
  config?: string;
  chaos: number;
  chaosRetryAfter?: string;
  seed?: number;
  limits: 'config' | 'tight';
  timeout: string;
  json?: boolean;
  junit?: string;
  markdown?: string;
  failOn: 'error' | 'warn';
  port?: number;
  record?: string;
  /** The flags of a command's emulator given on the command line (`--chaos`, `--port`, ...). */
  commandOnly?: string[];
}
