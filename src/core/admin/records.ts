import type { Level } from '../limits/bucket-key.js';
import type { Operation } from '../config/config.js';

/** How the limiter treated a request. */
export type Outcome =
  | 'allowed'
  | 'rate-limited'
  | 'shadow-limited'
  | 'injected-429'
  | 'invalid'
  | 'unauthenticated'
  | 'unrouted';

/** One request, as kept in the journal and sent on the event stream. */
export interface RequestRecord {
  id: number;
  /** Milliseconds since the epoch, from the emulator's clock. */
  at: number;
  method: string;
  path: string;
  operation: Operation | undefined;
  clientId: string | undefined;
  callerId: string | undefined;
  bucket: string | undefined;
  level: Level | undefined;
  status: number;
  outcome: Outcome;
  /** Whole tokens left in the bucket after the request. */
  remaining: number | undefined;
  /** The problem kind of an error answer (for example `code-invalid`). */
  problem: string | undefined;
}

/** A one-time code as reported by the dev API and the event stream (never by the service). */
export interface CodeRecord {
  merchant_id: string;
  email: string;
  code: string;
  issued_at: string;
  expires_at: string;
  attempts_left: number;
  used: boolean;
}

/** What the emulator announces to listeners (the server log, the TUI, server-sent events). */
export type EmulatorEvent =
  | { type: 'request'; request: RequestRecord }
  | { type: 'code'; code: CodeRecord }
  | { type: 'reset'; bucket: string | undefined }
  | { type: 'config'; limits: unknown; behavior: unknown; otp: unknown };
