import { describeFsError } from './file-error.js';
import { open, type FileHandle } from 'node:fs/promises';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { resolve as resolvePath } from 'node:path';
import { formatIssue, type ConfigError } from '../core/config/config-error.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../core/config/json-depth.js';
import { duplicateKey } from '../core/config/json-duplicate-key.js';
import { CliError, EXIT, isCliError } from './io.js';
import { packageFile } from './package-file.js';

/** The config file bundled with uas: the demo clients, merchants and users. */
export const BUNDLED_CONFIG_PATH = packageFile('fixtures/uas.config.json');

/** The largest config or scenario file read: 16 MiB (a config of 100,000 users is about 6 MiB). */
export const MAX_JSON_FILE_BYTES = 16 * 1_048_576;

/**
 * Reads a file of at most `maxBytes`, refusing a larger one without reading it (a device such as
 * /dev/urandom is read only up to the limit).
 */
export async function readBoundedFile(
  path: string,
  what: string,
  maxBytes: number = MAX_JSON_FILE_BYTES,
): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new CliError(`cannot read ${what} ${path}: ${describeFsError(error)}`, EXIT.usage);
  }
  const tooLarge = () =>
    new CliError(
      `${what} ${path} is larger than ${maxBytes / 1_048_576} MiB; is it the right file?`,
      EXIT.usage,
    );
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new CliError(`cannot read ${what} ${path}: it is a directory`);
    if (info.isFile() && info.size > maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buffer = Buffer.alloc(Math.min(65_536, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw tooLarge();
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    if (isCliError(error)) throw error;
    throw new CliError(`cannot read ${what} ${path}: ${describeFsError(error)}`, EXIT.usage);
  } finally {
    await handle.close();
  }
}

/** Reads and parses a JSON file, with one-line errors that name the file (and the line and column). */
export async function readJsonFile(path: string, what: string): Promise<unknown> {
  // A byte-order mark (some editors write one) is not part of the JSON.
  const text = (await readBoundedFile(path, what)).replace(/^\uFEFF/, '');
  if (nestsDeeperThan(text))
    throw new CliError(
      `${what} ${path} nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels`,
      EXIT.usage,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliError(`${what} ${path} is not valid JSON: ${describeJsonError(text)}`, EXIT.usage);
  }
  const twice = keyGivenTwice(text);
  if (twice !== undefined)
    throw new CliError(
      `${what} ${path} gives ${JSON.stringify(twice.key)} twice in one object (${twice.where}); only one of them would count, so give it once`,
      EXIT.usage,
    );
  return value;
}

/**
 * The first key given again in the same object, and where (`line 9, column 3`): JSON.parse keeps
 * the last silently, so a field of a config written twice (a block pasted in) would drop the
 * first without a word.
 */
export function keyGivenTwice(text: string): { key: string; where: string } | undefined {
  const twice = duplicateKey(text);
  return twice === undefined
    ? undefined
    : { key: twice.key, where: lineAndColumn(text, twice.offset) };
}

/** `line 4, column 12` of an offset in text. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  return `line ${before.split('\n').length}, column ${offset - before.lastIndexOf('\n')}`;
}

const JSON_ERRORS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected a colon',
  CommaExpected: 'expected a comma',
  CloseBraceExpected: 'expected a closing brace',
  CloseBracketExpected: 'expected a closing bracket',
  EndOfFileExpected: 'unexpected text after the end of the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'control character in a string',
};

/**
 * Where and why text is not JSON: `line 4, column 12: expected a comma`. JSON.parse words this
 * differently on each Node version (and gives no line on Node 20), so jsonc-parser, in strict
 * mode, finds the first error.
 */
export function describeJsonError(text: string): string {
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  if (first === undefined) return text.trim() === '' ? 'the file is empty' : 'not a JSON value';
  return `${lineAndColumn(text, first.offset)}: ${JSON_ERRORS[printParseErrorCode(first.error)] ?? 'invalid JSON'}`;
}

/** The config file `--config` names, resolved; the bundled one without it. */
export function configFilePath(path: string | undefined, cwd: string): string {
  return path === undefined ? BUNDLED_CONFIG_PATH : resolvePath(cwd, path);
}

/** Loads the config file at `path` (relative to `cwd`), or the bundled one. */
export async function loadConfigFile(
  path: string | undefined,
  cwd: string,
): Promise<{ config: Record<string, unknown>; path: string; bundled: boolean }> {
  const file = configFilePath(path, cwd);
  const config = await readJsonFile(file, 'config file');
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new CliError(`config file ${file} must hold a JSON object`, EXIT.usage);
  }
  return { config: config as Record<string, unknown>, path: file, bundled: path === undefined };
}

/** A flag that overrides a field of the config file. */
export interface ConfigFlag {
  /** The flag as typed, such as `--client-rate`. */
  flag: string;
  /** Where it goes in the config file, such as `["limits", "client", "rate"]`. */
  path: string[];
  value: unknown;
}

/** The flags that override a field of the config file: the flag, and where it writes. */
const CONFIG_FLAGS: Record<string, [flag: string, path: string[]]> = {
  clientBurst: ['--client-burst', ['limits', 'client', 'burst']],
  clientRate: ['--client-rate', ['limits', 'client', 'rate']],
  callerBurst: ['--caller-burst', ['limits', 'caller', 'burst']],
  callerRate: ['--caller-rate', ['limits', 'caller', 'rate']],
  callerScope: ['--caller-scope', ['limits', 'callerScope']],
  maxBuckets: ['--max-buckets', ['limits', 'maxBuckets']],
  journalSize: ['--journal-size', ['journal', 'size']],
  cost: ['--cost', ['limits', 'cost']],
  retryAfter: ['--retry-after', ['behavior', 'retryAfter']],
  headers: ['--headers', ['behavior', 'headers']],
  shadow: ['--shadow', ['behavior', 'shadow']],
  chaos: ['--chaos', ['behavior', 'chaos']],
  chaosRetryAfter: ['--chaos-retry-after', ['behavior', 'chaosRetryAfter']],
  latency: ['--latency', ['behavior', 'latency']],
  otp: ['--otp', ['otp', 'mode']],
  otpTtl: ['--otp-ttl', ['otp', 'ttl']],
  otpAttempts: ['--otp-attempts', ['otp', 'maxAttempts']],
  store: ['--store', ['store', 'url']],
  storePrefix: ['--store-prefix', ['store', 'prefix']],
  onStoreError: ['--on-store-error', ['store', 'onError']],
};

/**
 * The config flags a command was given (`uas serve`, `uas openapi`: each takes those it
 * declares), by commander's names for them, in a fixed order.
 */
export function configFlagsOf(flags: object): ConfigFlag[] {
  const given = flags as Record<string, unknown>;
  return Object.entries(CONFIG_FLAGS)
    .filter(([name]) => given[name] !== undefined)
    .map(([name, [flag, path]]) => ({ flag, path, value: given[name] }));
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Writes flag values over a config (a copy); flags win over the file. A flag that gives some
 * fields of an object (`--cost start=2`) overrides those fields only: the file's others stay.
 */
export function applyConfigFlags(
  config: Record<string, unknown>,
  flags: ConfigFlag[],
): Record<string, unknown> {
  const copy = structuredClone(config);
  for (const { path, value } of flags) {
    let node = copy;
    for (const key of path.slice(0, -1)) {
      const next = node[key];
      node[key] = isPlainObject(next) ? next : {};
      node = node[key] as Record<string, unknown>;
    }
    const last = path[path.length - 1] as string;
    const before = node[last];
    node[last] = isPlainObject(value) && isPlainObject(before) ? { ...before, ...value } : value;
  }
  return copy;
}

/**
 * Turns a config error into a CLI error with one line per issue, each in terms of the flag that
 * set the field (`invalid --client-rate: ...`) or of the file (`invalid config in FILE: ...`).
 */
export function configErrorToCli(
  error: ConfigError,
  flags: ConfigFlag[],
  source: string,
): CliError {
  const lines = error.issues.map((issue) => {
    for (const flag of flags) {
      const field = flag.path.join('.');
      if (issue.path === field || issue.path.startsWith(`${field}[`))
        return `invalid ${flag.flag}: ${issue.message}`;
      // A field inside the flag's value, such as limits.cost.start for --cost (one the flag
      // gave: the file's other fields stay the file's).
      if (issue.path.startsWith(`${field}.`) && givesField(flag.value, issue.path, field))
        return `invalid ${flag.flag}: ${issue.path.slice(field.length + 1)}: ${issue.message}`;
    }
    // A limit the message compares with may be a flag's, not the file's: said so.
    let said = formatIssue(issue);
    for (const flag of flags) {
      const field = `${flag.path.join('.')} (`;
      said = said.replace(field, `${field}from ${flag.flag}: `);
    }
    return `invalid ${source}: ${said}`;
  });
  return new CliError(lines.join('\n'), EXIT.usage);
}

/** Whether the value of a flag writing `field` gave the field of `path` just inside it. */
function givesField(value: unknown, path: string, field: string): boolean {
  if (!isPlainObject(value)) return true;
  const key = /^[^.[]*/.exec(path.slice(field.length + 1))?.[0] ?? '';
  return Object.hasOwn(value, key);
}
