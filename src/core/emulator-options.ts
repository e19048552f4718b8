import { VERSION_MAX_LENGTH } from './admin/dev-api-bounds.js';
import type { DevApiAccess } from './admin/dev-api-target.js';
import { ConfigError, configIssue } from './config/config-error.js';
import { got } from './config/schema-kit.js';
import { hasMethods, shownValue } from './config/value-shape.js';
import type { CoreEmulatorOptions, DevApiOptions } from './emulator.js';
import { CLOCK_RANGE_TEXT, isClockTime } from './time/clock.js';

/** Who may use the dev API, with the defaults applied: open, without a token. */
export function devApiAccess(options: DevApiOptions | undefined): DevApiAccess {
  return {
    enabled: options?.enabled ?? true,
    adminToken: checkAdminToken(options?.adminToken),
  };
}

/**
 * An admin token a client can send: an empty one would let every request through (an empty
 * header matches it), and one with a space could never be sent in a Bearer header.
 */
function checkAdminToken(token: string | undefined): string | undefined {
  if (token === undefined || /^[\x21-\x7e]{1,512}$/.test(token)) return token;
  throw new ConfigError([
    configIssue(
      ['devApi', 'adminToken'],
      token === ''
        ? 'the admin token is empty; give one, or none'
        : 'expected 1 to 512 printable ASCII characters without spaces',
    ),
  ]);
}

/** The version `GET /__uas/health` reports: printable ASCII, as a version is written. */
export function checkVersion(version: string | undefined): string {
  if (version === undefined) return '0.0.0';
  if (new RegExp(`^[\\x21-\\x7e]{1,${VERSION_MAX_LENGTH}}$`).test(version)) return version;
  throw new ConfigError([
    configIssue(
      ['version'],
      `expected 1 to ${VERSION_MAX_LENGTH} printable ASCII characters without spaces`,
    ),
  ]);
}

/**
 * Throws, naming it, for a clock or random source of another shape than the emulator calls (a
 * `random` that is a function, as Math.random is, made every start answer 500), a clock whose time
 * is none a record can show, or a count of the event streams' that bounds nothing.
 */
export function checkEmulatorOptions(options: CoreEmulatorOptions): void {
  const { clock, random } = options as { clock: unknown; random: unknown };
  if (!hasMethods(clock, ['now']))
    throw new TypeError(
      `createEmulator: clock must have now(), as createManualClock(start) gives; got ${shownValue(clock)}`,
    );
  const now = (clock as { now(): unknown }).now();
  if (typeof now !== 'number' || !isClockTime(now))
    throw new TypeError(
      `createEmulator: clock.now() must give ms since the epoch, ${CLOCK_RANGE_TEXT}; got ${shownValue(now)}`,
    );
  if (!hasMethods(random, ['next']))
    throw new TypeError(
      `createEmulator: random must have next(), as createSeededRandom(seed) gives; got ${shownValue(random)}`,
    );
  checkCount(options.eventQueueBytes, 'eventQueueBytes', 1);
  checkCount(options.maxEventReaders, 'maxEventReaders', 0);
}

function checkCount(value: unknown, name: string, min: number): void {
  if (value === undefined) return;
  const problem =
    typeof value !== 'number'
      ? `expected a number; ${got(value)}`
      : !Number.isSafeInteger(value) || value < min
        ? `expected a whole number from ${min}; ${got(value)}`
        : undefined;
  if (problem !== undefined) throw new ConfigError([configIssue([name], problem)]);
}
