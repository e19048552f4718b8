/** Options shared by every `uas call` command. */
export interface CallFlags {
  url: string;
  token?: string;
  tokenFile?: string;
  callerId?: string;
  forwardedFor?: string;
  trustedProxies?: string;
  maxAttempts: number;
  retry: boolean;
  maxWait: string;
  timeout: string;
  maxResponse: string;
  json?: boolean;
  verbose?: boolean;
  /**
   * `-V` given to a call (a hidden flag): refused with a message, rather than taken for anything,
   * since it is the version flag of `uas` itself, before any command.
   */
  V?: boolean;
  merchant?: string;
  email?: string;
  phone?: string;
  code?: string;
  adminToken?: string;
}
