import { describeFsError } from './file-error.js';
import { resolve as resolvePath } from 'node:path';
import { DEMO_TOKEN } from '../demo-config.js';
import { CliError } from './io.js';
import { isLoopbackHost } from './options.js';

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
  if (token !== undefined) return token;
  if (flags.tokenFile !== undefined) {
    const file = resolvePath(cwd, flags.tokenFile);
    let text: string;
    try {
      // Imported here: node:fs/promises (and the modules under it) is not loaded for a command's
      // declaration, at every start.
      const { readFile } = await import('node:fs/promises');
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new CliError(`cannot read --token-file ${file}: ${describeFsError(error)}`);
    }
    if (text.trim() === '') throw new CliError(`--token-file ${file} is empty`);
    return text.trim();
  }
  if (isLoopbackHost(target.hostname)) return DEMO_TOKEN;
  throw new CliError(
    `no access token for ${target.origin}: pass --token, --token-file, or set UAS_TOKEN (the demo token is used only against a local emulator)`,
  );
}
