import { OUTCOMES, type Outcome, type RequestRecord } from '../core/records/records.js';

/** The Requests page's filters; an empty text matches every request. */
export interface RequestFilter {
  operation: string;
  /** `429`, `4xx`, `5xx`, `2xx`, or an outcome such as `injected-fault`. */
  status: string;
  bucket: string;
  callerId: string;
  email: string;
  /** Any text of the record, case-insensitively. */
  text: string;
}

/** Each outcome a record can have, in words: an outcome the records gain must be named here. */
const OUTCOME_WORDS: Readonly<Record<Outcome, string>> = {
  allowed: 'allowed',
  'rate-limited': 'refused (rate-limited)',
  'shadow-limited': 'would be refused (shadow)',
  'injected-429': 'injected 429',
  'injected-fault': 'injected fault',
  invalid: 'invalid request',
  unauthenticated: 'unauthenticated',
  unrouted: 'unrouted',
  'upstream-failed': 'upstream failed (proxy)',
};

/** The choices of the status filter: classes of status, then every outcome of a record. */
export const STATUS_CHOICES: ReadonlyArray<{ value: string; label: string }> = [
  { value: '', label: 'any' },
  ...['2xx', '429', '4xx', '5xx'].map((value) => ({ value, label: value })),
  ...OUTCOMES.map((outcome) => ({ value: outcome, label: OUTCOME_WORDS[outcome] })),
];

/** The filter that keeps everything. */
export const NO_FILTER: RequestFilter = {
  operation: '',
  status: '',
  bucket: '',
  callerId: '',
  email: '',
  text: '',
};

/** Whether a request's status or outcome is what `wanted` says. */
export function statusMatches(request: Pick<RequestRecord, 'status' | 'outcome'>, wanted: string) {
  if (wanted === '') return true;
  if (/^\dxx$/.test(wanted)) return Math.floor(request.status / 100) === Number(wanted[0]);
  if (/^\d{3}$/.test(wanted)) return request.status === Number(wanted);
  return request.outcome === wanted;
}

/** The requests a filter keeps, in their order. */
export function filterRequests(
  requests: readonly RequestRecord[],
  filter: RequestFilter,
): RequestRecord[] {
  const text = filter.text.trim().toLowerCase();
  const email = filter.email.trim().toLowerCase();
  const caller = filter.callerId.trim();
  const bucket = filter.bucket.trim();
  return requests.filter(
    (request) =>
      (filter.operation === '' || request.operation === filter.operation) &&
      statusMatches(request, filter.status) &&
      (bucket === '' || (request.bucket ?? '').includes(bucket)) &&
      (caller === '' || callerIds(request).some((value) => value.includes(caller))) &&
      (email === '' || (request.email ?? '').toLowerCase().includes(email)) &&
      (text === '' || recordText(request).includes(text)),
  );
}

/**
 * Each record's text, lower-cased, made once per record: the Requests page filters its 20,000
 * again with each batch of live traffic, and serialising them all each time held the page for
 * a third of a second at a time. (Records are never changed once read.)
 */
const recordTexts = new WeakMap<RequestRecord, string>();

function recordText(request: RequestRecord): string {
  let text = recordTexts.get(request);
  if (text === undefined) {
    text = JSON.stringify(request).toLowerCase();
    recordTexts.set(request, text);
  }
  return text;
}

/** Every caller_id a request carried: where the service reads it, and where it does not. */
function callerIds(request: RequestRecord): string[] {
  const values = request.caller_id_misplaced.map((entry) => entry.value);
  return request.caller_id === undefined ? values : [request.caller_id, ...values];
}
