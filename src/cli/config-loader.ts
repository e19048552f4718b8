import { readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError, EXIT } from './io.js';

/** The config file bundled with uas: the demo clients, merchants and users. */
export const BUNDLED_CONFIG_PATH = fileURLToPath(
  new URL('../../fixtures/uas.config.json', import.meta.url),
);

/** Reads and parses a JSON file, with one-line errors that name the file. */
export async function readJsonFile(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a directory'
            : (error as Error).message;
    throw new CliError(`cannot read ${what} ${path}: ${reason}`, EXIT.usage);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `${what} ${path} is not valid JSON: ${(error as Error).message}`,
      EXIT.usage,
    );
  }
}

/** Loads the config file at `path` (relative to `cwd`), or the bundled one. */
export async function loadConfigFile(
  path: string | undefined,
  cwd: string,
): Promise<{ config: Record<string, unknown>; path: string; bundled: boolean }> {
  const file = path === undefined ? BUNDLED_CONFIG_PATH : resolvePath(cwd, path);
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

/** Writes flag values over a config (a copy); flags win over the file. */
export function applyConfigFlags(
  config: Record<string, unknown>,
  flags: ConfigFlag[],
): Record<string, unknown> {
  const copy = structuredClone(config);
  for (const { path, value } of flags) {
    let node = copy;
    for (const key of path.slice(0, -1)) {
      const next = node[key];
      node[key] = typeof next === 'object' && next !== null && !Array.isArray(next) ? next : {};
      node = node[key] as Record<string, unknown>;
    }
    node[path[path.length - 1] as string] = value;
  }
  return copy;
}

/** Rewrites config issues (`limits.client.rate: ...`) in terms of the flag that set the field. */
export function describeConfigIssue(
  issue: string,
  flags: ConfigFlag[],
  configPath: string,
): string {
  for (const flag of flags) {
    const field = flag.path.join('.');
    if (issue.startsWith(`${field}: `))
      return `invalid ${flag.flag}: ${issue.slice(field.length + 2)}`;
    // A field inside the flag's value, such as limits.cost.start for --cost.
    if (issue.startsWith(`${field}.`))
      return `invalid ${flag.flag}: ${issue.slice(field.length + 1)}`;
  }
  return `invalid config in ${configPath}: ${issue}`;
}
