import {
  classifyNetworkError,
  describeNetworkError,
  type NetworkErrorKind,
} from './network-error.js';

/** What reading a body gave: the whole text, or why there is none. */
export type BodyReading =
  | { kind: 'complete'; text: string; bytes: number }
  /** The body ended early (connection closed or reset, a timeout): the answer is not whole. */
  | { kind: 'cut-short'; bytes: number; error: string; reason: NetworkErrorKind }
  /** The body is, or says it is, longer than the limit; it was not read any further. */
  | { kind: 'too-large'; bytes: number; announced: number | undefined; error: string };

/**
 * Whether `error` is the one {@link readResponseBody} gives a body over its limit (`too-large`),
 * read or announced: what a larger limit would change, unlike an empty body or one of another
 * shape.
 */
export function isOverLimitError(error: string | undefined): boolean {
  return /^the answer( announces \d+ bytes \(Content-Length\), above|'s body passed) the limit of \d+/.test(
    error ?? '',
  );
}

/**
 * Reads a response body as UTF-8 text, at most `maxBytes` of it: refused at once when
 * `Content-Length` announces more, and cancelled as soon as the bytes read pass the limit (a body
 * with no length, or a compressed one, is counted as it arrives). A read that fails part-way (the
 * server closed before `Content-Length` bytes, a reset, the attempt's timeout) is `cut-short`,
 * never a complete answer; `describe` words what broke it.
 */
export async function readResponseBody(
  response: Response,
  maxBytes: number,
  describe: (failure: unknown) => string = describeNetworkError,
): Promise<BodyReading> {
  const announced = contentLength(response.headers.get('content-length'));
  if (announced !== undefined && announced > maxBytes) {
    await cancelQuietly(response.body);
    return {
      kind: 'too-large',
      bytes: 0,
      announced,
      error: `the answer announces ${announced} bytes (Content-Length), above the limit of ${maxBytes}; not read`,
    };
  }
  if (response.body === null) return { kind: 'complete', text: '', bytes: 0 };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) {
        await cancelQuietly(reader);
        return {
          kind: 'too-large',
          bytes,
          announced,
          error: `the answer's body passed the limit of ${maxBytes} bytes; not read further`,
        };
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch (failure) {
    const of = announced === undefined ? '' : ` of ${announced}`;
    return {
      kind: 'cut-short',
      bytes,
      reason: classifyNetworkError(failure),
      error: `the answer was cut short after ${bytes}${of} bytes of body (${describe(failure)})`,
    };
  }
  return { kind: 'complete', text: text + decoder.decode(), bytes };
}

function contentLength(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

async function cancelQuietly(target: { cancel(): Promise<void> } | null): Promise<void> {
  try {
    await target?.cancel();
  } catch {
    // The stream may already be broken; there is nothing left to release.
  }
}
