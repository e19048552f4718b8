import { headerValue, type EmulatorRequest } from './exchange.js';

/**
 * Why a request's body cannot be read for its `Content-Encoding`, or undefined when it can: no
 * coding is read, so any but `identity` (alone, repeated, or an empty list) is refused, by the
 * service and the dev API alike.
 */
export function compressedBody(request: EmulatorRequest): string | undefined {
  const coding = headerValue(request.headers, 'content-encoding');
  if (coding === undefined) return undefined;
  const codings = coding.split(',').map((part) => part.trim().toLowerCase());
  if (codings.every((part) => part === '' || part === 'identity')) return undefined;
  return `send the JSON body uncompressed: no content coding is read; got Content-Encoding ${JSON.stringify(coding.slice(0, 100))}`;
}
