import { fileURLToPath } from 'node:url';

/**
 * How far the module that holds this code is from the package root: set by the bundler (every
 * file of the bundled CLI is in dist/cli/), absent when the sources run as they are (src/cli/).
 */
declare const UAS_PACKAGE_ROOT: string | undefined;

const ROOT = typeof UAS_PACKAGE_ROOT === 'string' ? UAS_PACKAGE_ROOT : '../../';

/** The path of a file that ships with uas (`fixtures/uas.config.json`, `bin/uas.js`, ...). */
export function packageFile(path: string): string {
  return fileURLToPath(new URL(`${ROOT}${path}`, import.meta.url));
}
