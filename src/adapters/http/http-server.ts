import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AnyEmulator } from '../../core/emulator.js';
import { createHttpTransport, type HttpTransportOptions } from '../../transport/http-transport.js';

/** Options of {@link listen}: the transport's timeouts, limits, Host policy and engine. */
export type HttpServerOptions = HttpTransportOptions;

/** A running HTTP server over an emulator. */
export interface EmulatorHttpServer {
  readonly server: Server;
  /** The base URL it listens on, such as `http://127.0.0.1:4010`. */
  readonly url: string;
  /**
   * Stops accepting, answers delayed requests at once, lets in-flight requests finish, ends event
   * streams; closes what is still open after `graceMs`.
   * @default graceMs 3_000
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Serves the emulator over HTTP on `host:port` (port 0 picks a free port): the default engine of
 * `uas serve` calls the core directly; pass `engine` for another (the msw engine).
 */
export async function listen(
  emulator: AnyEmulator,
  port: number,
  host: string,
  options: HttpServerOptions = {},
): Promise<EmulatorHttpServer> {
  const transport = createHttpTransport(emulator, options);
  const { server } = transport;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${urlHost(host, address.address)}:${address.port}`,
    close: (graceMs = 3_000) => transport.close(graceMs),
  };
}

/**
 * The host of the URL a server listening on `host` (bound to `bound`) is reached at: the name or
 * address given (an IPv6 one in brackets), or loopback for one that means every interface
 * (`0.0.0.0`, `0`, `::`), which no client can connect to as such.
 */
export function urlHost(host: string, bound: string): string {
  if (bound === '0.0.0.0') return '127.0.0.1';
  if (bound === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
