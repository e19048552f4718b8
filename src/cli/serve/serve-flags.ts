import type { LimitFlags } from '../options.js';
import type { LogMode } from '../request-log.js';

/** Options of `uas serve`, as commander parses them. */
export interface ServeFlags extends LimitFlags {
  port: number;
  host: string;
  config?: string;
  shadow?: boolean;
  chaos?: number;
  chaosRetryAfter?: string;
  latency?: string;
  otp?: string;
  otpTtl?: string;
  otpAttempts?: number;
  maxBuckets?: number;
  journalSize?: number | 'unbounded';
  record?: string;
  /** Undefined when not given: 16 MiB. */
  recordBuffer?: number | undefined;
  clock: 'system' | 'manual';
  clockStart?: number;
  cost?: Record<string, number>;
  engine: 'fast' | 'msw';
  handlers?: string;
  log: LogMode;
  adminToken?: string;
  allowedHosts?: string[];
  tui?: boolean;
  /** Whether the dashboard is served at `/__uas/ui/` (`--no-ui` turns it off). */
  ui: boolean;
  /** Open the dashboard in a browser once listening. */
  open?: boolean;
  store?: string;
  storePrefix?: string;
  onStoreError?: 'open' | 'closed';
  workers: number;
  /** The real service's base URL: the operations are forwarded there. */
  upstream?: string;
  enforce?: 'upstream' | 'local' | 'shadow';
  upstreamCa?: string;
  upstreamTimeout?: number;
}
