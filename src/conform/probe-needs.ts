import type { ConformOptions } from './conform-options.js';

// Why a probe cannot run with the options given (undefined: it can), in the words of the flags.

/** The probes that need a merchant. */
export const needsMerchant = (options: ConformOptions): string | undefined =>
  options.merchantId === undefined
    ? "needs --merchant-id (a merchant of the token's client)"
    : undefined;

/** The probes that need a user the target knows. */
export const needsEmail = (options: ConformOptions): string | undefined =>
  options.email === undefined ? 'needs --email (a user the target knows)' : undefined;

/** The probes that need a known user and a merchant. */
export const needsUser = (options: ConformOptions): string | undefined =>
  needsEmail(options) ?? needsMerchant(options);

/** The probes that empty a caller bucket: opt-in. */
export const needsExhaust = (options: ConformOptions): string | undefined =>
  options.exhaust ? undefined : 'opt-in: --exhaust spends real quota';
