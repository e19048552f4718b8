import { createServer } from 'node:net';
import { isDevApiError } from '../../dev-client/dev-api-error.js';
import { createDevClient } from '../../dev-client/dev-client.js';

/** What is at a port of 127.0.0.1. */
export interface PortStatus {
  port: number;
  /** Whether `uas serve` could listen there now. */
  free: boolean;
  /** The version of the uas emulator answering there, if one does. */
  emulator: { answers: true; version: string | null } | { answers: false };
}

/** Whether the port can be listened on: tried, and released at once. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () =>
      server.close(() => resolve(true)),
    );
  });
}

/**
 * Whether `uas serve` could listen on `port`, and whether a uas emulator answers there (its dev
 * API's health route, given `timeoutMs`; one whose dev API needs an admin token, or is off, answers
 * with a problem of uas's, and its version is not known; a server that answers anything else is
 * not one).
 */
export async function portStatus(port: number, timeoutMs = 2_000): Promise<PortStatus> {
  if (await canListen(port)) return { port, free: true, emulator: { answers: false } };
  try {
    const health = await createDevClient(`http://127.0.0.1:${port}`, {
      timeoutMs,
      maxResponseBytes: 65_536,
    }).health();
    return { port, free: false, emulator: { answers: true, version: health.version ?? null } };
  } catch (error) {
    // A uas emulator whose dev API needs the admin token, or is off, still says so as uas does.
    const uas = isDevApiError(error) && error.problem?.type.startsWith('urn:uas:problem:') === true;
    return {
      port,
      free: false,
      emulator: uas ? { answers: true, version: null } : { answers: false },
    };
  }
}
