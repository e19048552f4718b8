import { BOUNDS, CLIENT_ID_MAX_LENGTH } from '../config/config-schema.js';
import { LATEST_DATE_MS } from '../time/clock.js';

/**
 * The bounds the dev API's routes and answers keep, each what the emulator enforces or what its
 * data cannot exceed: the OpenAPI document states them, the router refuses input past them.
 */

/** The most buckets one page of `GET /__uas/buckets` holds. */
export const BUCKET_PAGE_MAX = 1000;

/** The most requests one page of `GET /__uas/requests` (or the journal) holds. */
export const REQUEST_PAGE_MAX = 100_000;

/** The longest bucket key: `caller:<client id>:<caller_id>`, both at their longest. */
export const BUCKET_KEY_MAX_LENGTH =
  'caller:'.length + CLIENT_ID_MAX_LENGTH + 1 + BOUNDS.callerIdLength;

/** A merchant id: a UUID. */
export const MERCHANT_ID_LENGTH = 36;

/** The longest ISO 8601 time a Date writes (a six-digit year and its sign). */
export const ISO_TIME_MAX_LENGTH = new Date(-LATEST_DATE_MS).toISOString().length;

/** The most characters of the version an emulator reports. */
export const VERSION_MAX_LENGTH = 64;

/** The most users one `POST /__uas/users` adds. */
export const USERS_PER_REQUEST_MAX = 100_000;

/** The most users one page of `GET /__uas/users` holds. */
export const USER_PAGE_MAX = 100_000;

/** The most users an emulator holds (the config's own plus those added live). */
export const MAX_USERS = 1_000_000;

/** A counter (requests, ids): a safe integer. */
export const COUNT_MAX = Number.MAX_SAFE_INTEGER;

/**
 * The most rules `uas check` has: what `GET /__uas/check` lists at most (a test holds the catalog
 * of `src/check` to it).
 */
export const CHECK_RULES_MAX = 64;

/**
 * The longest text of a check report (a finding's message, spec or fix, a reason, a warning, an
 * example value): a template of a few hundred characters quoting at most a value or two of a
 * record, each at most 256 characters and 6 per character once escaped (a test of `src/check`
 * holds the rules to it on hostile records).
 */
export const CHECK_TEXT_MAX_LENGTH = 4096;

/** The longest time text `POST /__uas/clock` reads as `set` (ISO 8601). */
export const CLOCK_TEXT_MAX_LENGTH = 64;
