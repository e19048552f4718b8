import type { RequestRecord } from '../core/records/records.js';

/**
 * Why an answer relayed from the real service (behind `--upstream`) did not reach its client
 * whole, said short (the request log's words are longer): its status line alone would look like a
 * success.
 */
const CUT_WORDS = {
  upstream: 'cut by the real service',
  client: 'client left',
  shutdown: 'cut at shutdown',
} as const;

/** ` [cut by the real service]` and the like for a record whose answer was cut, else `''`. */
export function cutNote(record: RequestRecord): string {
  const cut = record.upstream?.cut;
  return cut === undefined ? '' : ` [${CUT_WORDS[cut]}]`;
}
