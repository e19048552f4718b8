import type { EmulatorHttpServer } from '../../adapters/http/http-server.js';
import { EXIT } from '../io.js';
import type { Recording } from './start-recording.js';
import type { OpenedStore } from './serve-store.js';

/** How long requests in flight get to finish once the server stops, before they are cut. */
const CLOSE_GRACE_MS = 3_000;

/** What one `uas serve` process holds open, each part from the moment it started. */
export interface ServeParts {
  store?: OpenedStore | undefined;
  recording?: Recording | undefined;
  server?: EmulatorHttpServer | undefined;
  /** Stops the request log. */
  unsubscribe?: (() => void) | undefined;
}

/** Why `uas serve` stops. */
export type ServeStop =
  /** SIGINT, SIGTERM or SIGHUP: exit 0. */
  | { by: 'signal'; signal: string }
  /** q on the `--tui` screen: exit 0. */
  | { by: 'screen' }
  /** The local redis-server of `--store redis` went away with the state: exit 1. */
  | { by: 'store-lost'; reason: string }
  /** A part could not start (its error is what the command ends with). */
  | { by: 'failed-start' };

/**
 * The one shutdown sequence of `uas serve`, whatever stops it: `tell` says why (the process's
 * own line), the request log stops, the server closes (requests in flight get a grace period),
 * then the store, and last the recording, which so keeps the requests answered while closing
 * and writes what it holds. Parts that never started are skipped. Resolves with the exit code.
 */
export async function shutDown(
  parts: ServeParts,
  stop: ServeStop,
  tell: (stop: ServeStop) => void = () => {},
): Promise<number> {
  tell(stop);
  parts.unsubscribe?.();
  await parts.server?.close(CLOSE_GRACE_MS);
  await parts.store?.close();
  await parts.recording?.stop();
  return stop.by === 'signal' || stop.by === 'screen' ? EXIT.ok : EXIT.failure;
}
