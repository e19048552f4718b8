import { request } from 'node:http';
import { afterEach } from 'vitest';
import { listen, type EmulatorHttpServer } from '../../src/adapters/http/http-server.js';
import { createEmulator } from '../../src/emulator.js';
import { createManualClock } from '../../src/core/time/clock.js';
import type { Emulator } from '../../src/core/emulator.js';
import { DEMO_CONFIG } from '../../src/demo-config.js';
import { createProxyEngine } from '../../src/proxy/proxy-engine.js';
import type { UpstreamOptions } from '../../src/proxy/upstream-options.js';

/** A token the stand-in knows and the proxy's config does not: a merchant's real token. */
export const REAL_TOKEN = 'real-merchant-token-3f9a1c77b2';

/** A config for a uas playing the real service, or the proxy, with these limits. */
export function configWith(
  limits: { callerBurst: number; clientBurst?: number },
  token = REAL_TOKEN,
) {
  return {
    ...DEMO_CONFIG,
    clients: [{ ...DEMO_CONFIG.clients[0]!, token }],
    limits: {
      client: { burst: limits.clientBurst ?? 100, rate: '1/h' },
      caller: { burst: limits.callerBurst, rate: '1/h' },
    },
  };
}

/** A uas listening on port 0 over a manual clock: the real service's stand-in, or a proxy. */
export interface Running {
  emulator: Emulator;
  server: EmulatorHttpServer;
  url: string;
}

/**
 * For the tests of a file: starts uas instances (each closed after its test), as the real
 * service (`upstream` unset) or as a proxy in front of a base URL.
 */
export function useInstances(): (
  config: unknown,
  upstream?: Omit<UpstreamOptions, 'base'> & { base: string },
) => Promise<Running> {
  const running: Running[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((one) => one.server.close(0)));
  });
  return async (config, upstream) => {
    const emulator = createEmulator({ config, clock: createManualClock(1_800_000_000_000) });
    const engine = upstream === undefined ? undefined : createProxyEngine(emulator, upstream);
    const server = await listen(emulator, 0, '127.0.0.1', { engine });
    const one = { emulator, server, url: server.url };
    running.push(one);
    return one;
  };
}

/** An answer as the bytes came: status, raw header pairs, and the body's bytes. */
export interface RawReply {
  status: number;
  rawHeaders: string[];
  body: Buffer;
}

/** Sends one request with node:http and reads its answer raw (no decoding of any kind). */
export function rawExchange(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: init.method ?? 'GET',
      headers: init.headers,
      agent: false,
    });
    outgoing.on('error', reject);
    outgoing.on('response', (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () =>
        resolve({
          status: incoming.statusCode ?? 0,
          rawHeaders: incoming.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
    });
    outgoing.end(init.body);
  });
}

/** The header pairs a server adds on its own connection, left out when answers are compared. */
export function withoutConnectionHeaders(raw: string[]): string[][] {
  const pairs: string[][] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] as string;
    if (!/^(date|connection|keep-alive|transfer-encoding)$/i.test(name))
      pairs.push([name, raw[index + 1] as string]);
  }
  return pairs;
}
