import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * The version of package `name` where uas's own imports would find it (the node_modules folders
 * above uas's files, as Node looks them up), or undefined when it is not installed there. What
 * package.json holds is read as hostile: anything but a short version string counts as absent.
 */
export function installedVersion(name: string, from: string): string | undefined {
  const folders = createRequire(from).resolve.paths(name) ?? [];
  for (const folder of folders) {
    let text: string;
    try {
      text = readFileSync(join(folder, name, 'package.json'), 'utf8');
    } catch {
      continue;
    }
    try {
      const version: unknown = (JSON.parse(text) as { version?: unknown }).version;
      if (typeof version === 'string' && /^[\w.+-]{1,64}$/.test(version)) return version;
    } catch {
      // A package.json that does not parse is no installed package.
    }
    return undefined;
  }
  return undefined;
}
