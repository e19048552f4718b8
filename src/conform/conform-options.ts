import type { HeaderStyle } from '../core/config/config-schema.js';

/** Who and what the suite asks about, with the run's own caller_ids. */
export interface ConformTarget {
  /** A user the target knows, for start and the known-user probe. */
  email: string | undefined;
  /** A merchant of the token's client, for start and verify. */
  merchantId: string | undefined;
  /** Short text unique to this run: caller_ids and the probe address are made from it. */
  runId: string;
}

/** What the suite was asked to do. */
export interface ConformOptions extends ConformTarget {
  /** Run the probes that empty a caller bucket (they spend real quota). */
  exhaust: boolean;
  /** Read the one-time code from a uas emulator's dev API, to check verify's success answer. */
  devApi: boolean;
  /** The rate-limit field style expected. */
  style: HeaderStyle;
  /** The longest Retry-After the suite waits. */
  maxWaitMs: number;
}
