import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEFAULT_URL } from './defaults.js';
import { CliError } from './io.js';
import { parseIsoTime } from '../core/time/iso-time.js';

/** Commander parser for a whole number within bounds. */
export function integerIn(min: number, max: number) {
  return (text: string): number => {
    if (!/^-?\d+$/.test(text.trim()))
      throw new InvalidArgumentError(`expected a whole number; got ${JSON.stringify(text)}`);
    const value = Number(text);
    if (value < min || value > max)
      throw new InvalidArgumentError(`expected a number from ${min} to ${max}; got ${value}`);
    return value;
  };
}

/** Commander parser for a number within bounds (fractions allowed). */
export function numberIn(min: number, max: number) {
  return (text: string): number => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value))
      throw new InvalidArgumentError(`expected a number; got ${JSON.stringify(text)}`);
    if (value < min || value > max)
      throw new InvalidArgumentError(`expected a number from ${min} to ${max}; got ${value}`);
    return value;
  };
}

/** `//user:password@` in text that may be a URL: never echoed back. */
const USERINFO = /(\/\/)[^/?#@]*@/g;

/**
 * Parses an http(s) URL given to `flag`; a CliError (usage) names the flag otherwise. A URL with
 * a user name or password is refused: uas sends no URL credentials (fetch would refuse them, and
 * the error would repeat the password), and the refusal does not repeat them either; it names
 * `credential`, the way the command takes a token instead (none for a URL it never calls).
 */
export function parseHttpUrl(flag: string, text: string, credential?: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(
      `invalid ${flag}: expected an http(s) URL such as http://127.0.0.1:4010; got ${JSON.stringify(text.replace(USERINFO, '$1***@'))}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(
      `invalid ${flag}: expected http or https; got ${JSON.stringify(url.protocol)}`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    url.username = '';
    url.password = '';
    throw new CliError(
      `invalid ${flag}: a user name or password in the URL is not supported (uas sends no URL credentials); give ${url.href}${credential === undefined ? '' : ` and ${credential}`}`,
    );
  }
  // Paths are added to a base URL: after a query or a fragment they would not be paths.
  if (url.href.includes('?') || url.href.includes('#'))
    throw new CliError(
      `invalid ${flag}: a base URL takes no query or fragment; got ${JSON.stringify(url.href)}`,
    );
  return url;
}

/** How the commands that call the service take its access token, for parseHttpUrl. */
export const ACCESS_TOKEN = 'the access token with --token or UAS_TOKEN';
/** How the commands that read the dev API take its admin token, for parseHttpUrl. */
export const ADMIN_TOKEN = 'the admin token with --admin-token or UAS_ADMIN_TOKEN';

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

/**
 * Parses a size such as "65536", "512kb" or "1mb" (units of 1024, case-insensitive, `kib`, `mib`
 * and `gib` alike), at most
 * `max` bytes (`why` says why, in the error). By hand: the `bytes` package would read "12abc"
 * as 12 and "1e9" as 1.
 */
export function sizeFlag(
  flag: string,
  text: string,
  max?: { bytes: number; text: string; why: string },
): number {
  const match = /^(\d+(?:\.\d+)?)\s*(b|[kmg]i?b)?$/i.exec(text.trim());
  const unit = (match?.[2] ?? 'b').toLowerCase();
  // A size in bytes is whole; a fraction of a larger unit is rounded down to bytes.
  const value =
    match === null || (unit === 'b' && match[1]!.includes('.'))
      ? NaN
      : Math.floor(Number(match[1]) * (SIZE_UNITS[unit] ?? NaN));
  if (!Number.isSafeInteger(value) || value < 1)
    throw new CliError(
      `invalid ${flag}: expected a size above zero, such as "65536", "512kb" or "1mb"; got ${JSON.stringify(text)}`,
    );
  if (max !== undefined && value > max.bytes)
    throw new CliError(
      `invalid ${flag}: expected at most ${max.text} (${max.why}); got ${JSON.stringify(text)}`,
    );
  return value;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\]|::ffff:127\.\d+\.\d+\.\d+)$/i;

/** Whether a host name or address (as in a URL or `--host`) is this machine's loopback. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host);
}

/**
 * Commander parser for per-operation costs: `start=2,verify=1`. `earlier` holds the pairs of the
 * `--cost` flags before this one: `--cost start=2 --cost verify=1` is both, where the second
 * dropped the first without a word.
 */
export function operationCosts(
  text: string,
  earlier?: Record<string, number>,
): Record<string, number> {
  const costs: Record<string, number> = {};
  for (const part of text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')) {
    const match = /^(exists|start|verify)=(\d+)$/.exec(part);
    if (!match || Number(match[2]) < 1) {
      throw new InvalidArgumentError(
        `expected operation=tokens pairs such as "start=2,verify=1" (operations: exists, start, verify); got ${JSON.stringify(part)}`,
      );
    }
    const operation = match[1] as string;
    // Which of two costs for one operation to take would be a guess.
    if (operation in costs)
      throw new InvalidArgumentError(
        `expected each operation once; got ${operation} twice in ${JSON.stringify(text)}`,
      );
    costs[operation] = Number(match[2]);
  }
  if (Object.keys(costs).length === 0)
    throw new InvalidArgumentError(
      'expected at least one operation=tokens pair, such as "start=2"',
    );
  for (const [operation, tokens] of Object.entries(earlier ?? {}))
    if (operation in costs)
      throw new InvalidArgumentError(
        `expected each operation once; got ${operation} in two --cost flags (${operation}=${tokens}, then ${JSON.stringify(text)})`,
      );
  return { ...earlier, ...costs };
}

/** Commander parser for a comma-separated list of host names (`--allowed-hosts`). */
export function hostList(text: string): string[] {
  const names = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const name of names) {
    if (name !== '*' && !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i.test(name))
      throw new InvalidArgumentError(
        `expected host names such as "uas.internal,10.0.0.5" or "*"; got ${JSON.stringify(name)}`,
      );
  }
  if (names.length === 0) throw new InvalidArgumentError('expected at least one host name');
  return names;
}

/** Commander parser for `--journal-size`: a whole number, or `unbounded`. */
export function journalSize(text: string): number | 'unbounded' {
  if (text === 'unbounded') return text;
  return integerIn(1, 1_000_000)(text);
}

/** Commander parser for an ISO 8601 time (`2026-01-01T00:00:00Z`); returns ms since the epoch. */
export function isoTime(text: string): number {
  const value = parseIsoTime(text.trim());
  if (value === undefined)
    throw new InvalidArgumentError(
      `expected an ISO 8601 time such as 2026-01-01T00:00:00Z; got ${JSON.stringify(text)}`,
    );
  return value;
}

/** The flags {@link addLimitOptions} adds, as commander parses them. */
export interface LimitFlags {
  clientBurst?: number;
  clientRate?: string;
  callerBurst?: number;
  callerRate?: string;
  callerScope?: string;
  retryAfter?: string;
  headers?: string;
}

/**
 * The bucket and header flags `uas serve` and `uas openapi` share (what each does with them is
 * read by `configFlagsOf`): the same names, parsers and help in both.
 */
export function addLimitOptions(command: Command): Command {
  return command
    .option('--client-burst <n>', 'client bucket size (tokens)', integerIn(1, 1_000_000_000))
    .option('--client-rate <rate>', 'client bucket refill, such as "10/s", "100/m", "5/10s"')
    .option('--caller-burst <n>', 'caller bucket size (tokens)', integerIn(1, 1_000_000_000))
    .option('--caller-rate <rate>', 'caller bucket refill, such as "1/s"')
    .addOption(
      new Option(
        '--caller-scope <scope>',
        'caller buckets per client, or shared by all clients',
      ).choices(['client', 'global']),
    )
    .option('--retry-after <mode>', 'Retry-After on 429: exact, absent or fixed:<seconds>')
    .addOption(
      new Option('--headers <style>', 'rate-limit header style').choices([
        'draft-10',
        'draft-7',
        'draft-6',
        'x-ratelimit',
        'none',
      ]),
    );
}

/**
 * Adds `--url` (or UAS_URL; `credential` as {@link parseHttpUrl} takes it). A URL taken from
 * UAS_URL is checked before the command runs, and refused naming UAS_URL: the command's own check
 * names --url, which the user never typed. Not when the option named `unusedWith` is given
 * (`uas conform --journal` sends nothing): a URL the command leaves unused is not refused.
 */
export function addUrlOption(
  command: Command,
  description: string,
  credential: string,
  unusedWith?: string,
): Command {
  return command
    .addOption(new Option('--url <url>', description).env('UAS_URL').default(DEFAULT_URL))
    .hook('preAction', (self) => {
      if (unusedWith !== undefined && self.getOptionValue(unusedWith) !== undefined) return;
      if (self.getOptionValueSource('url') === 'env')
        parseHttpUrl('UAS_URL', String(self.getOptionValue('url')), credential);
    });
}

/**
 * Refuses an admin token `uas serve` cannot require (exit 2), naming where it came from: `name` is
 * `--admin-token`, or `UAS_ADMIN_TOKEN` when the flag was not given.
 */
export function checkServeAdminToken(token: string, name: string): void {
  if (/^[\x21-\x7e]{1,512}$/.test(token)) return;
  throw new CliError(
    token === ''
      ? `${name === '--admin-token' ? '--admin-token (or UAS_ADMIN_TOKEN)' : name} is empty; give a token, or unset it`
      : `invalid ${name}: expected 1 to 512 printable ASCII characters without spaces`,
  );
}

/** The emulator a command reads through its dev API (`uas code`, `uas top`): its URL and token. */
export function addEmulatorOptions(command: Command): Command {
  return addUrlOption(command, 'the emulator', ADMIN_TOKEN).addOption(
    new Option(
      '--admin-token <token>',
      'the dev API admin token, when the emulator requires one',
    ).env('UAS_ADMIN_TOKEN'),
  );
}

/**
 * Commander parser for `--upstream`: an http or https base URL without credentials, query or
 * fragment (a path prefix is kept).
 */
export function upstreamUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError(`expected an http(s) base URL; got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError(`expected an http or https URL; got ${url.protocol}`);
  if (url.username !== '' || url.password !== '')
    throw new InvalidArgumentError(
      'the URL must not hold credentials; the client sends its own token',
    );
  if (url.search !== '' || url.hash !== '')
    throw new InvalidArgumentError('the URL must be a base, without query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
