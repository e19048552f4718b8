/**
 * `bytes` when it is a limit a reader can count to (a whole number above 0); otherwise a
 * TypeError naming `what`: a negative limit refused every answer, and NaN none.
 */
export function byteLimit(bytes: number, what: string): number {
  if (!Number.isSafeInteger(bytes) || bytes <= 0)
    throw new TypeError(`${what} must be a whole number of bytes above 0; got ${String(bytes)}`);
  return bytes;
}
