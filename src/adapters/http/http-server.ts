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
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    close: (graceMs = 3_000) => transport.close(graceMs),
  };
}
