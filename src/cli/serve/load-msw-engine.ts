import { existsSync } from 'node:fs';
import type { RequestHandler } from 'msw';
import type { AnyEmulator } from '../../core/emulator.js';
import type { Engine } from '../../transport/http-transport.js';
import { CliError, EXIT } from '../io.js';
import { importOptional } from '../optional-import.js';

/** The msw engine over the user's handlers (`--handlers`), loaded from their module. */
export async function loadMswEngine(
  emulator: AnyEmulator,
  handlersFile: string | undefined,
  cwd: string,
): Promise<Engine> {
  const [{ createMswEngine }, { pathToFileURL }, { resolve }] = await Promise.all([
    importOptional(
      () => import('../../adapters/msw/msw-engine.js'),
      'msw',
      'uas serve --engine msw',
    ),
    import('node:url'),
    import('node:path'),
  ]);
  let handlers: RequestHandler[] = [];
  if (handlersFile !== undefined) {
    const file = resolve(cwd, handlersFile);
    let loaded: { handlers?: unknown; default?: unknown };
    try {
      loaded = (await settledOrStalled(import(pathToFileURL(file).href), file)) as typeof loaded;
    } catch (error) {
      if (error instanceof CliError) throw error;
      // The file itself missing is said so, not as Node's import error, which names uas's own
      // bundle as the importer; a module the file imports is named as Node names it.
      const said = existsSync(file) ? (error as Error).message.split('\n')[0] : 'no such file';
      throw new CliError(`cannot load --handlers ${file}: ${said}`, EXIT.usage);
    }
    const list = loaded.handlers ?? loaded.default;
    if (!Array.isArray(list))
      throw new CliError(
        `--handlers ${file} must export an array named "handlers" (or a default array) of msw handlers`,
        EXIT.usage,
      );
    // Each is checked here, where it is one line at the start, rather than as a 500 to every
    // request (`handler.run is not a function`) once the server listens.
    const stray = list.findIndex(
      (item: unknown) =>
        typeof item !== 'object' ||
        item === null ||
        typeof (item as { run?: unknown }).run !== 'function',
    );
    if (stray !== -1)
      throw new CliError(
        `--handlers ${file}: item ${stray} of its handlers is not an msw handler (such as http.get(path, resolver))`,
        EXIT.usage,
      );
    handlers = list as RequestHandler[];
  }
  return createMswEngine(emulator, handlers);
}

/**
 * `loading`, or a CliError once nothing is left to run while it waits: a module whose top-level
 * await never settles would otherwise end the process silently, with exit code 0.
 */
function settledOrStalled<T>(loading: Promise<T>, file: string): Promise<T> {
  let stalled: () => void = () => {};
  const watch = new Promise<never>((_, reject) => {
    stalled = () =>
      reject(
        new CliError(
          `cannot load --handlers ${file}: it never finished loading (a top-level await that never settles)`,
          EXIT.usage,
        ),
      );
  });
  process.once('beforeExit', stalled);
  return Promise.race([loading, watch]).finally(() => process.off('beforeExit', stalled));
}
