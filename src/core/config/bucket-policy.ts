/** The limits of one bucket: it holds at most `burst` tokens and gains `refillPerMs` each ms. */
export interface BucketPolicy {
  burst: number;
  refillPerMs: number;
  /**
   * The policies in force before this one (changed live), oldest first, each until the change
   * that ended it: a bucket last updated before a change refills at the policy of each stretch.
   */
  past?: readonly PastPolicy[] | undefined;
}

/** A policy a bucket followed until a live change at `until` (ms). */
export interface PastPolicy {
  burst: number;
  refillPerMs: number;
  until: number;
}

/** No live change yet. */
export const NO_PAST: readonly PastPolicy[] = Object.freeze([]);
