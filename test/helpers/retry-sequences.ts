import type { RequestRecord } from '../../src/core/records/records.js';
import { recordMaker } from './check-records.js';

/** One caller's retries: when it was first refused, and its backoffs beyond Retry-After. */
export interface Sequence {
  /** When the first attempt was sent, in ms from the start. */
  start: number;
  /** The wait beyond Retry-After (1 s) before each resend. */
  backoffs: number[];
}

/**
 * Records of callers that are refused (429, Retry-After 1 s) on every attempt but the last, and
 * resend after Retry-After plus the given backoffs; each caller has its own e-mail and caller_id.
 */
export function retrySequences(sequences: Sequence[]): RequestRecord[] {
  const make = recordMaker();
  return sequences.flatMap(({ start, backoffs }, caller) => {
    const who = { email: `caller${caller}@example.com`, callerId: `caller-${caller}` };
    let at = start;
    const records = [make({ ...who, at, status: 429 })];
    backoffs.forEach((backoff, index) => {
      at += 1000 + backoff;
      records.push(make({ ...who, at, status: index === backoffs.length - 1 ? 200 : 429 }));
    });
    return records;
  });
}

/** `count` callers, a second apart, each with the backoffs `backoff(caller)` returns. */
export function callers(count: number, backoff: (caller: number) => number[]): Sequence[] {
  return Array.from({ length: count }, (_, caller) => ({
    start: caller * 10_000,
    backoffs: backoff(caller),
  }));
}
