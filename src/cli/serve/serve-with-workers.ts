import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describeFsError } from '../file-error.js';
import { CliError, EXIT } from '../io.js';
import { recordOpenError } from '../record-open-error.js';
import { endCutLine } from './end-cut-line.js';
import { openSinkSync, type OpenedSink } from './record-sink.js';
import { printBanner } from './banner.js';
import { openDashboard } from './open-dashboard.js';
import type { ServeFlags } from './serve-flags.js';
import { warnBlockedPort, type ServeOutput } from './serve-output.js';
import { openStore, startLocalRedis, storeSource, type StoreSpec } from './serve-store.js';

/**
 * `uas serve --workers N`: checks the shared store once (starting the local redis-server of
 * `--store redis`), then runs N workers on the port. Resolves with the exit code.
 */
export async function serveWithWorkers(
  flags: ServeFlags,
  spec: StoreSpec,
  config: unknown,
  clockStart: number,
  args: string[],
  out: ServeOutput,
): Promise<number> {
  if (spec.url === 'memory')
    throw new CliError(
      `--workers ${flags.workers} needs a store the processes share: add --store redis (a local redis-server started for it) or --store redis://host:6379`,
      EXIT.usage,
    );
  // A --record the workers could not open (a FIFO nobody reads, a folder that is not there) is
  // one line and exit 2, said once before anything starts, as without --workers. The primary
  // holds it open while the workers run, so that a FIFO's reader never sees it end between them.
  const held =
    flags.record === undefined ? undefined : holdRecord(resolve(out.io.cwd, flags.record));
  let embedded: Awaited<ReturnType<typeof startLocalRedis>> | undefined;
  let copy: ReturnType<typeof writeConfigCopy> | undefined;
  try {
    copy = writeConfigCopy(config);
    embedded = spec.url === 'redis' ? await startLocalRedis() : undefined;
    const storeUrl = embedded?.url ?? spec.url;
    // Reachable, and the config seeds (or joins) the shared state, before any worker starts.
    const probe = await openStore(spec, {
      config,
      url: storeUrl,
      from: storeSource(flags),
      onStatus: () => {},
      onWarning: () => {},
    });
    await probe?.close();
    const joined = probe?.store.joined === true;
    // Before any worker appends: one of them could glue its first line to a line cut short.
    if (flags.record !== undefined) endCutLine(resolve(out.io.cwd, flags.record));
    const { runWorkers } = await import('./run-workers.js');
    const code = await runWorkers({
      count: flags.workers,
      args,
      role: { storeUrl, clockStart, configFile: copy.file },
      io: out.io,
      printBanner: (worker) => {
        // Whether live state was there to join is the primary's to say: it connected first.
        const banner =
          worker.store.kind === 'redis'
            ? { ...worker, store: { ...worker.store, joined } }
            : worker;
        if (flags.log === 'json') out.write(JSON.stringify(banner));
        else printBanner(banner, out.write, out.chalk);
        warnBlockedPort(banner.url, out);
        if (flags.open === true) void openDashboard(banner.dashboard, out);
      },
      print: (line) => out.note('warning', line),
      failWhen: embedded?.exited,
    });
    out.write(
      flags.log === 'json'
        ? JSON.stringify({ type: 'shutdown', workers: flags.workers })
        : out.chalk.dim('workers stopped'),
    );
    return code;
  } finally {
    await embedded?.stop();
    held?.close();
    copy?.remove();
  }
}

/**
 * The config the primary read, written for the workers to read in its place: each worker reading
 * `--config` again would find a pipe or process substitution (`-c <(...)`) empty, and a file
 * changed since would give workers, or one restarted later, another config. Readable by this
 * user only: it holds the clients' tokens.
 */
function writeConfigCopy(config: unknown): { file: string; remove(): void } {
  let dir: string | undefined;
  try {
    dir = mkdtempSync(join(tmpdir(), 'uas-workers-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify(config), { mode: 0o600 });
    const made = dir;
    return { file, remove: () => rmSync(made, { recursive: true, force: true }) };
  } catch (error) {
    // Nothing of it left behind (a folder made, its file not written: a full disk).
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    throw new CliError(
      `--workers: cannot write the config the workers read to ${tmpdir()}: ${describeFsError(error)}`,
      EXIT.failure,
    );
  }
}

/** `--record`'s path opened, as each worker will open it; a CliError (exit 2) when it cannot be. */
function holdRecord(path: string): OpenedSink {
  try {
    return openSinkSync(path);
  } catch (error) {
    throw recordOpenError(path, error);
  }
}
