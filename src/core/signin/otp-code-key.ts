/**
 * The one key a code is kept under: its merchant and e-mail, each case-insensitive, so that one
 * (merchant, e-mail) holds one code whatever the case it was asked in. The memory store keys its
 * Map with it, the Redis store its hash (inside the hash tag).
 */
export function otpCodeKey(merchantId: string, email: string): string {
  return `${merchantId.toLowerCase()} ${email.toLowerCase()}`;
}
