import type { Probe } from './probe.js';
import { authInvalidToken } from './probes/auth-invalid-token.js';
import { authRequired } from './probes/auth-required.js';
import { callerSeparateBuckets } from './probes/caller-separate-buckets.js';
import { existsInvalidEmail } from './probes/exists-invalid-email.js';
import { existsKnownUser } from './probes/exists-known-user.js';
import { existsUnknownUser } from './probes/exists-unknown-user.js';
import { headersRateLimit } from './probes/headers-rate-limit.js';
import { limitCallerExhausted } from './probes/limit-caller-exhausted.js';
import { limitOtherCallerUnaffected } from './probes/limit-other-caller-unaffected.js';
import { limitRetryAfterHonoured } from './probes/limit-retry-after-honoured.js';
import { startInvalidEmail } from './probes/start-invalid-email.js';
import { startSendsCode } from './probes/start-sends-code.js';
import { verifySignsIn } from './probes/verify-signs-in.js';
import { verifyWrongCode } from './probes/verify-wrong-code.js';

/**
 * The probes of `uas conform`, in the order they run: later ones read what earlier ones left
 * (the answers of caller_id `a`, whether start issued a code, the 429 of the exhaustion).
 */
export const CONFORM_PROBES: readonly Probe[] = [
  authRequired,
  authInvalidToken,
  existsUnknownUser,
  existsKnownUser,
  existsInvalidEmail,
  startInvalidEmail,
  startSendsCode,
  verifyWrongCode,
  verifySignsIn,
  callerSeparateBuckets,
  limitCallerExhausted,
  limitOtherCallerUnaffected,
  limitRetryAfterHonoured,
  headersRateLimit,
];
