import type { EnforceMode } from '../core/upstream-side.js';

/** How `uas serve --upstream` reaches the real service. */
export interface UpstreamOptions {
  /** The real service's base URL, http or https, with or without a path prefix. */
  base: string;
  /**
   * Who decides: the real service only, uas's buckets first, or uas's buckets counting.
   * @default 'upstream'
   */
  enforce?: EnforceMode;
  /** Certificates (PEM) trusted besides the system's, for an https base. */
  ca?: string | Buffer | undefined;
  /**
   * Milliseconds the real service has to send its status line and headers, and then between
   * two parts of its body; past it the request is answered 504 (or, mid-body, cut off).
   * @default 10_000
   */
  timeoutMs?: number;
  /**
   * The most bytes of an answer's body relayed; a longer one is answered 502 when its length is
   * announced, else cut off where it passes the limit.
   * @default 1_048_576
   */
  maxBodyBytes?: number;
  /**
   * The largest header block of an answer, in bytes; a larger one is answered 502.
   * @default 16_384
   */
  maxHeaderBytes?: number;
}

/** The options with their defaults. */
export type ResolvedUpstreamOptions = Required<Omit<UpstreamOptions, 'ca'>> &
  Pick<UpstreamOptions, 'ca'>;

/** Fills in the defaults of {@link UpstreamOptions}. */
export function resolveUpstreamOptions(options: UpstreamOptions): ResolvedUpstreamOptions {
  return {
    base: options.base.replace(/\/+$/, ''),
    enforce: options.enforce ?? 'upstream',
    ca: options.ca,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxBodyBytes: options.maxBodyBytes ?? 1_048_576,
    maxHeaderBytes: options.maxHeaderBytes ?? 16_384,
  };
}
