import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError, EXIT } from './io.js';

/**
 * Packages uas can do without, and what to install for each feature: they are optional peer
 * dependencies, so that a test suite that uses uas gets neither a terminal UI nor an msw it did
 * not ask for.
 */
export const OPTIONAL = {
  screen: { packages: ['ink', 'react'], install: 'ink@6 react@19' },
  msw: { packages: ['msw'], install: 'msw@2' },
  redis: { packages: ['ioredis'], install: 'ioredis@5' },
} as const;

/**
 * The one command that installs the optional packages `needs` where a uas loaded from `from` (a
 * file URL of its own) finds them: with -g beside a uas in npm's global folder (`npm install -g`,
 * whose imports never look in the project's node_modules), otherwise in the project (or clone).
 */
export function installCommand(needs: keyof typeof OPTIONAL, from: string): string {
  const { install } = OPTIONAL[needs];
  // npx installs uas into a folder of its own cache, whose imports see neither the project's
  // node_modules nor the global folder: the packages must come with uas, on npx's command line.
  if (ranByNpx(from)) {
    return `add ${install.replace(/(\S+)/g, '--package $1')} to the npx command`;
  }
  const prefix = globalPrefix(from);
  if (prefix === undefined) return `npm install --save-dev ${install}`;
  // A global folder of its own (`npm install -g --prefix DIR`): a bare -g would install elsewhere.
  const own = prefix !== defaultGlobalPrefix() && prefix !== npmPrefixSetting();
  return `npm install -g ${own ? `--prefix ${shellWord(prefix)} ` : ''}${install}`;
}

/** npm's global folder when nothing moves it (POSIX): the folder above the one node is in. */
function defaultGlobalPrefix(): string {
  return dirname(dirname(process.execPath));
}

/** The global folder npm's environment sets, if any (`npm_config_prefix`). */
function npmPrefixSetting(): string | undefined {
  return process.env.npm_config_prefix ?? process.env.NPM_CONFIG_PREFIX;
}

/** A path as one shell word: quoted when it holds anything but plain characters. */
function shellWord(text: string): string {
  return /^[\w./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Whether uas runs from npx's cache (`npx --package ./uas-<version>.tgz uas ...`). */
function ranByNpx(from: string): boolean {
  return /[\\/]_npx[\\/][^\\/]+[\\/]node_modules[\\/]uas[\\/]/.test(decodeURIComponent(from));
}

/**
 * The global folder (prefix) uas runs from (`npm install -g`: `PREFIX/lib/node_modules/uas`), or
 * undefined when it runs from a project or a clone.
 */
function globalPrefix(from: string): string | undefined {
  const path = from.startsWith('file:') ? fileURLToPath(from) : decodeURIComponent(from);
  const at = /[\\/]lib[\\/]node_modules[\\/]uas[\\/]/.exec(path);
  return at === null ? undefined : path.slice(0, at.index) || '/';
}

/**
 * Loads a module that needs optional packages; when one is not installed, says which, for what,
 * and the command that installs it where this uas finds them (exit code 2) instead of a stack
 * trace. `from` is where uas runs from (this module, unless a test says otherwise).
 */
export async function importOptional<T>(
  load: () => Promise<T>,
  needs: keyof typeof OPTIONAL,
  feature: string,
  from: string = import.meta.url,
): Promise<T> {
  // React's development build (what it loads without NODE_ENV) checks every render and draws a
  // screen at half the speed. Only the commands that draw load it, and they start no program of
  // the user's that would inherit the setting.
  if (needs === 'screen') process.env.NODE_ENV ??= 'production';
  try {
    return await load();
  } catch (error) {
    const { packages } = OPTIONAL[needs];
    const failure = error as NodeJS.ErrnoException;
    const missing = packages.find(
      (name) =>
        failure.code === 'ERR_MODULE_NOT_FOUND' &&
        new RegExp(`['"]${name}['"/]`).test(failure.message),
    );
    if (missing === undefined) throw error;
    throw new CliError(
      `${feature} needs ${packages.join(' and ')}, ${packages.length === 1 ? 'an optional dependency' : 'optional dependencies'} of uas that ${packages.length === 1 ? 'is' : 'are'} not installed here: ${installCommand(needs, from)}`,
      EXIT.usage,
    );
  }
}
