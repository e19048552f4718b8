import { getResponse, type RequestHandler } from 'msw';
import type { AnyEmulator } from '../../core/emulator.js';
import type { Engine, TransportResponse } from '../../transport/transport-exchange.js';
import { hostOrigin } from '../../contract/served-document.js';
import { emulatorHandlers, toFetchResponse } from './msw-handlers.js';
import { giveWay } from '../../runtime/give-way.js';

/**
 * The msw engine of `uas serve`: each request becomes a Fetch request for msw's `getResponse`
 * over `handlers` (the user's, tried first) and the emulator's own, which answer every path. The
 * socket work is the transport's, as for the default engine.
 */
export function createMswEngine(emulator: AnyEmulator, handlers: RequestHandler[] = []): Engine {
  return createFetchEngine(emulator, [...handlers, ...emulatorHandlers(emulator, '')]);
}

/**
 * An engine over msw handlers: resolves with their answer, or undefined when none matched.
 * What the Fetch API cannot carry goes to the emulator's core as it is.
 */
export function createFetchEngine(emulator: AnyEmulator, all: RequestHandler[]): Engine {
  return async (request) => {
    const headers = new Headers();
    try {
      for (const [name, value] of Object.entries(request.headers)) {
        if (value === undefined) continue;
        if (Array.isArray(value)) for (const entry of value) headers.append(name, entry);
        else headers.set(name, value);
      }
    } catch {
      return fromFetchResponse(
        await toFetchResponse(emulator, emulator.handle(request, giveWay), request.signal),
      );
    }
    const withBody = request.method !== 'GET' && request.method !== 'HEAD';
    let fetchRequest: Request;
    try {
      fetchRequest = new Request(
        `${origin(headers.get('host'), request.localOrigin)}${request.url}`,
        {
          method: request.method,
          headers,
          // Bytes, not text: a text body would get `text/plain;charset=UTF-8` from the Fetch
          // API when the client sent no Content-Type, and the 415 would name a type never sent.
          body: withBody ? new TextEncoder().encode(request.body ?? '') : undefined,
          signal: request.signal,
        },
      );
    } catch {
      // What the Fetch API cannot carry (a header value it refuses) goes to the core as it is.
      return fromFetchResponse(
        await toFetchResponse(emulator, emulator.handle(request, giveWay), request.signal),
      );
    }
    const response = await getResponse(all, fetchRequest);
    return response === undefined ? undefined : fromFetchResponse(response);
  };
}

/**
 * The origin of the Fetch request: the one its Host names when that is a plain host and port,
 * else the address of the server that answered, as the default engine would name it.
 */
function origin(host: string | null, local: string | undefined): string {
  const named = hostOrigin(host);
  if (named !== undefined) {
    try {
      return new URL(named).origin;
    } catch {
      // not a host: fall through
    }
  }
  return local ?? 'http://localhost';
}

async function fromFetchResponse(response: Response): Promise<TransportResponse> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const streaming = response.headers.get('content-type')?.startsWith('text/event-stream') === true;
  if (streaming && response.body !== null)
    return { status: response.status, headers, stream: response.body };
  return {
    status: response.status,
    headers,
    body: new Uint8Array(await response.arrayBuffer()),
  };
}
