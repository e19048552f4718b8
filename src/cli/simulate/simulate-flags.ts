/** Options of `uas simulate`, as commander parses them. */
export interface SimulateFlags {
  preset?: string;
  scenario?: string;
  listPresets?: boolean;
  duration?: string;
  seed?: number;
  shoppers?: number;
  arrivalRate?: string;
  thinkTime?: string;
  botRate?: string;
  botTarget?: string;
  botStart?: string;
  botStop?: string;
  modes?: string;
  clientBurst?: number;
  clientRate?: string;
  callerBurst?: number;
  callerRate?: string;
  maxAttempts?: number;
  json?: boolean;
  markdown?: boolean;
  html?: string;
  target?: string;
  token?: string;
  merchant?: string;
  adminToken?: string;
  concurrency: number;
  watch?: boolean;
  speed: number;
  /** The flags of a live run given on the command line (`--token`, `--concurrency`, ...). */
  liveOnly?: string[];
  /** The flags of `--watch` given on the command line (`--speed`). */
  watchOnly?: string[];
}
