import type { EmulatorResponse } from '../core/service/exchange.js';
import { createProblem } from '../core/service/problems.js';
import type { TransportResponse } from './outgoing.js';

/** The core's answer as a transport writes it: a JSON body serialised, a text or stream as is. */
export function fromCore(response: EmulatorResponse): TransportResponse {
  return {
    status: response.status,
    headers: response.headers,
    body: response.text ?? (response.body === undefined ? '' : JSON.stringify(response.body)),
    stream: response.stream,
    close: response.close,
  };
}

/** The answer to a request the emulator failed (a shared store that rejected). */
export function emulatorFailed(error: unknown): EmulatorResponse {
  return {
    status: 500,
    headers: { 'content-type': 'application/problem+json' },
    body: createProblem('internal-error', `the emulator failed: ${(error as Error).message}`),
    delayMs: 0,
  };
}
