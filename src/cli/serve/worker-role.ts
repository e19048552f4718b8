import type { Banner } from './banner.js';

/** What a worker of `uas serve --workers N` is told by its primary, through its environment. */
export interface WorkerRole {
  /** 1 to N. */
  index: number;
  /** The store the primary chose (the socket of the redis-server it started, for `--store redis`). */
  storeUrl: string;
  /** Where a manual clock starts: the same for every worker. */
  clockStart: number;
  /**
   * The config the primary read (flags applied), written to a file of its own: every worker,
   * a restarted one too, runs on it, though the file given may be a pipe read once, or changed.
   */
  configFile?: string | undefined;
}

/** The environment variables that carry a {@link WorkerRole}. */
export const WORKER_ENV = {
  index: 'UAS_WORKER_INDEX',
  store: 'UAS_WORKER_STORE',
  clockStart: 'UAS_WORKER_CLOCK_START',
  configFile: 'UAS_WORKER_CONFIG',
} as const;

/** The role of this process when a primary started it as a worker; undefined otherwise. */
export function workerRole(
  env: Readonly<Record<string, string | undefined>>,
): WorkerRole | undefined {
  const index = Number(env[WORKER_ENV.index]);
  const storeUrl = env[WORKER_ENV.store];
  const clockStart = Number(env[WORKER_ENV.clockStart]);
  if (!Number.isSafeInteger(index) || index < 1 || storeUrl === undefined) return undefined;
  return {
    index,
    storeUrl,
    clockStart: Number.isFinite(clockStart) ? clockStart : Date.now(),
    configFile: env[WORKER_ENV.configFile] || undefined,
  };
}

/** What a worker sends its primary once it listens. */
export interface ListeningMessage {
  type: 'uas-listening';
  banner: Banner;
}

/** Tells the primary that this worker listens (the primary prints the banner once all do). */
export function reportListening(banner: Banner): void {
  process.send?.({ type: 'uas-listening', banner } satisfies ListeningMessage);
}
