import { StoreUnavailableError } from '../../core/store/emulator-store.js';
import { classifyFailure, errorLine, isNotConnected, type RedisFailure } from './redis-failure.js';
import type { StoreStatus } from './store-modes.js';

/** What the store knows of Redis's health: explicit, one record. */
export interface HealthState {
  /** Whether the last command reached Redis. */
  healthy: boolean;
  /** Whether the connections were made: a failure before is the error connecting throws. */
  connected: boolean;
  /** Bucket decisions let through while Redis was unreachable (`onError: "open"`). */
  failedOpen: number;
  /** Why the connection was lost, until it is back: what "not connected" is said with. */
  lastProblem: string | undefined;
  /** A refused SELECT, until a connection is made again: it outweighs what follows from it. */
  databaseProblem: string | undefined;
}

/**
 * Redis's health as this instance sees it: what the connections report, and what commands find.
 * It tells `onStatus` once when Redis goes away, and once when it is back.
 */
export interface RedisHealth {
  readonly state: Readonly<HealthState>;
  /** The connections are made: from now on, a loss is told. */
  connected(): void;
  /** Redis went away: why, in words for people ("did not answer within 1000 ms"), or the error. */
  markDown(why: unknown): void;
  markUp(): void;
  /** A bucket decision was let through while Redis was away. */
  failedOpen(): void;
  /** The main connection is being made again. */
  connecting(): void;
  /** The main connection reported an error; `refusedDatabase` when it was a refused SELECT. */
  connectionError(error: unknown, refusedDatabase: string | undefined): void;
  /** The main connection is ready. */
  ready(): void;
  /** Why a command failed, and whether Redis is away. */
  failure(error: unknown): RedisFailure;
  /** A failed command as the request that needed it is told: marks Redis down when it is away. */
  refusal(error: unknown): StoreUnavailableError;
  /** Runs a command; a failure becomes a StoreUnavailableError (and marks Redis down if away). */
  command<T>(run: () => Promise<T>): Promise<T>;
  /**
   * Runs a read of the dev API or the metrics: a failure is a StoreUnavailableError, but says
   * nothing of Redis's health (a listing too large to answer in time is not Redis going away).
   */
  read<T>(run: () => Promise<T>): Promise<T>;
  /** The one-line error the store throws when it cannot start. */
  startFailure(error: unknown): Error;
}

/** The health of the Redis at `display`, whose commands are given `timeoutMs`. */
export function createRedisHealth(options: {
  display: string;
  timeoutMs: number;
  onStatus?: ((status: StoreStatus) => void) | undefined;
}): RedisHealth {
  const { display, timeoutMs } = options;
  const state: HealthState = {
    healthy: true,
    connected: false,
    failedOpen: 0,
    lastProblem: undefined,
    databaseProblem: undefined,
  };
  const unavailable = (reason: string) =>
    new StoreUnavailableError(`Redis at ${display} ${reason}`);
  const health: RedisHealth = {
    state,
    connected: () => void (state.connected = true),
    markDown(why) {
      if (!state.healthy || !state.connected) return;
      state.healthy = false;
      const error = typeof why === 'string' ? why : health.failure(why).reason.replace(/^is /, '');
      options.onStatus?.({ state: 'down', error });
    },
    markUp() {
      if (state.healthy) return;
      state.healthy = true;
      options.onStatus?.({ state: 'up' });
    },
    failedOpen: () => void state.failedOpen++,
    connecting: () => void (state.databaseProblem = undefined),
    connectionError(error, refusedDatabase) {
      state.databaseProblem = refusedDatabase ?? state.databaseProblem;
      // ioredis's own words for a closed connection say less than the error that closed it.
      if (state.databaseProblem !== undefined || !isNotConnected(error))
        state.lastProblem = state.databaseProblem ?? errorLine(error);
      health.markDown(state.lastProblem ?? 'not connected');
    },
    ready() {
      state.lastProblem = undefined;
      health.markUp();
    },
    failure: (error) => classifyFailure(error, timeoutMs, state.lastProblem),
    refusal(error) {
      const { reason, away } = health.failure(error);
      if (away) health.markDown(reason.replace(/^is /, ''));
      return unavailable(reason);
    },
    async command(run) {
      try {
        const value = await run();
        health.markUp();
        return value;
      } catch (error) {
        throw health.refusal(error);
      }
    },
    async read(run) {
      try {
        return await run();
      } catch (error) {
        throw unavailable(health.failure(error).reason);
      }
    },
    startFailure(error) {
      if (state.databaseProblem !== undefined)
        return new Error(`Redis at ${display}: ${state.databaseProblem}`);
      // "Connection is closed" says less than the error that closed it (ECONNREFUSED, ENOENT).
      const problem = state.lastProblem ?? errorLine(error);
      // A TLS handshake with a server that does not speak TLS waits until the connect timeout.
      const tlsHint =
        display.startsWith('rediss:') && /\b(ETIMEDOUT|timeout)$/.test(problem)
          ? ' (does that port take TLS? rediss:// connects with TLS)'
          : '';
      return new Error(`cannot reach Redis at ${display}: ${problem}${tlsHint}`);
    },
  };
  return health;
}
