import { describeFsError } from './file-error.js';
import { resolve as resolvePath } from 'node:path';
import { DEMO_TOKEN } from '../demo-config.js';
import { CliError } from './io.js';
import { isLoopbackHost } from './options.js';
import { notTokenAlone, unsendableCharacter } from '../text/header-token.js';

/**
 * The access token of `--token` (or `UAS_TOKEN`) or `--token-file`; the demo token when neither
 * is given and the target is this machine. An empty value counts as none.
 */
export async function resolveAccessToken(
  flags: { token?: string | undefined; tokenFile?: string | undefined },
  target: URL,
  cwd: string,
): Promise<string> {
  const token = flags.token?.trim() === '' ? undefined : flags.token?.trim();
  if (token !== undefined && flags.tokenFile !== undefined)
    throw new CliError('give --token or --token-file, not both');
  if (token !== undefined) return sendable(token, 'of --token (or UAS_TOKEN)');
  if (flags.tokenFile !== undefined) {
    const file = resolvePath(cwd, flags.tokenFile);
    const text = await readTokenFile(file);
    if (text.trim() === '') throw new CliError(`--token-file ${file} is empty`);
    return sendable(text.trim(), `of --token-file ${file}`);
  }
  if (isLoopbackHost(target.hostname)) return DEMO_TOKEN;
  throw new CliError(
    `no access token for ${target.origin}: pass --token, --token-file, or set UAS_TOKEN (the demo token is used only against a local emulator)`,
  );
}

/** The most of a token file read: no token is this long (a header of it would be refused). */
const MAX_TOKEN_FILE_BYTES = 64 * 1024;

/**
 * The text of a token file, read up to {@link MAX_TOKEN_FILE_BYTES} and no further: a larger file
 * (or a device such as /dev/zero) is a usage error, never read into memory whole.
 */
async function readTokenFile(file: string): Promise<string> {
  const bytes = Buffer.alloc(MAX_TOKEN_FILE_BYTES + 1);
  let length = 0;
  try {
    // Imported here: node:fs/promises (and the modules under it) is not loaded for a command's
    // declaration, at every start.
    const { open } = await import('node:fs/promises');
    const handle = await open(file, 'r');
    try {
      for (let read = -1; read !== 0 && length < bytes.length; length += read)
        ({ bytesRead: read } = await handle.read(bytes, length, bytes.length - length, null));
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new CliError(`cannot read --token-file ${file}: ${describeFsError(error)}`);
  }
  if (length > MAX_TOKEN_FILE_BYTES)
    throw new CliError(
      `--token-file ${file} is larger than 64 KiB, more than any token; give the file that holds the token alone`,
    );
  return bytes.subarray(0, length).toString('utf8');
}

/**
 * The token, when an Authorization header can carry it: one line of printable ASCII (a bearer
 * token is letters, digits and -._~+/=). Otherwise a usage error that says which character, never
 * the token itself: fetch would refuse the header on every attempt, and its error quotes it. An
 * empty token is refused too (`uas simulate --token ''`), as createClient would refuse it.
 */
export function sendable(token: string, where: string): string {
  // createClient refuses an empty token with a TypeError: said here in the CLI's words.
  if (token === '')
    throw new CliError(`the token ${where} is empty; give a token, or leave ${flagOf(where)} out`);
  const shape = notTokenAlone(token);
  if (shape !== undefined) throw new CliError(`the token ${where} ${shape}`);
  const why = unsendableCharacter(token);
  if (why === undefined) return token;
  throw new CliError(
    `the token ${where} cannot go in an Authorization header: ${why} (a token is one line of printable ASCII)`,
  );
}

/** The flag `where` names (`of --token (or UAS_TOKEN)` → `--token`). */
function flagOf(where: string): string {
  return /--[a-z-]+/.exec(where)?.[0] ?? 'it';
}

/** The admin token of `--admin-token` (or `UAS_ADMIN_TOKEN`), when a header can carry it. */
export function sendableAdminToken(token: string | undefined): string | undefined {
  return token === undefined || token === ''
    ? token
    : sendable(token, 'of --admin-token (or UAS_ADMIN_TOKEN)');
}
