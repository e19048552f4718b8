/** What persistent 429s of an empty bucket mean. */
export const PERSISTENT_429_ADVICE =
  'persistent 429s usually mean a missing or shared caller_id (one bucket for many users), or abuse; send a caller_id unique to each end-user.';

/**
 * What an injected 429 means. An emulator marks the 429s it injects (`"injected": true`, from
 * --chaos or a scripted fault): those say nothing about the bucket or the caller_id. Their
 * rate-limit fields say none left until Retry-After, as a refusal does, so the bucket's own
 * tokens are not known here (the dev API shows them).
 */
export const INJECTED_429_NOTE =
  'the last 429 was injected by the emulator (--chaos, or a fault scripted with POST /__uas/faults), not caused by an empty bucket; it says nothing about your caller_id.';

/**
 * Why a 404 may be the base URL's doing: one that ends in the API's own `/v1` sends requests to
 * `/v1/v1/...`. Undefined for any other base.
 */
export function basePathHint(base: string): string | undefined {
  const path = new URL(base).pathname.replace(/\/+$/, '');
  if (!/\/v1$/i.test(path)) return undefined;
  const root = new URL(base);
  root.pathname = path.slice(0, -'/v1'.length) || '/';
  return `the base URL ends in /v1, which uas adds itself (the request went to ${path}/v1/...): give ${root.href.replace(/\/+$/, '')}`;
}
