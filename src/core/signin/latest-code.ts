import type { OtpCode } from './otp-codes.js';

/**
 * The code issued last to an e-mail (case-insensitive) among `codes`, at whichever merchant; of
 * two issued at the same time, the later in `codes`. Undefined when there is none.
 */
export function latestCode(codes: Iterable<OtpCode>, email: string): OtpCode | undefined {
  const wanted = email.toLowerCase();
  let newest: OtpCode | undefined;
  for (const code of codes)
    if (
      code.email.toLowerCase() === wanted &&
      (newest === undefined || code.issuedAt >= newest.issuedAt)
    )
      newest = code;
  return newest;
}
