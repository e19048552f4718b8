import type { CheckRule } from './check-rule.js';
import { callerIdInternalIp } from './rules/caller-id-internal-ip.js';
import { callerIdIsEmail } from './rules/caller-id-is-email.js';
import { callerIdMissing } from './rules/caller-id-missing.js';
import { callerIdPerRequest } from './rules/caller-id-per-request.js';
import { callerIdShared } from './rules/caller-id-shared.js';
import { callerIdWrongPlace } from './rules/caller-id-wrong-place.js';
import { ignores429 } from './rules/ignores-429.js';
import { retryBeforeRetryAfter } from './rules/retry-before-retry-after.js';
import { retryCapExceeded } from './rules/retry-cap-exceeded.js';
import { retryCapPossiblyExceeded } from './rules/retry-cap-possibly-exceeded.js';
import { retryOnClientError } from './rules/retry-on-client-error.js';
import { retryWithoutBackoff } from './rules/retry-without-backoff.js';
import { retryWithoutJitter } from './rules/retry-without-jitter.js';
import { unauthenticated } from './rules/unauthenticated.js';

/** Every rule of `uas check`, in the order reports list them. */
export const CHECK_RULES: readonly CheckRule[] = [
  unauthenticated,
  callerIdMissing,
  callerIdWrongPlace,
  callerIdShared,
  callerIdPerRequest,
  callerIdInternalIp,
  callerIdIsEmail,
  retryBeforeRetryAfter,
  retryCapExceeded,
  retryCapPossiblyExceeded,
  retryOnClientError,
  ignores429,
  retryWithoutBackoff,
  retryWithoutJitter,
];
