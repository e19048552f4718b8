import type { EmulatorResponse } from '../core/service/exchange.js';
import { createProblem, type Problem } from '../core/service/problems.js';
import type { TransportResponse } from './transport-exchange.js';

/** The core's answer as a transport writes it: a JSON body serialised, a text or stream as is. */
export function fromCore(response: EmulatorResponse): TransportResponse {
  return {
    status: response.status,
    headers: response.headers,
    body: response.text ?? (response.body === undefined ? '' : JSON.stringify(response.body)),
    stream: response.stream,
    paceMs: response.paceMs,
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

/**
 * A refusal by the transport itself, as the core would answer it: problem+json, never cached,
 * sent at once; `close` ends the connection after it (a request whose body is left unread).
 */
export function problemAnswer(problem: Problem, close: boolean): EmulatorResponse {
  return {
    status: problem.status,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
    body: problem,
    delayMs: 0,
    close,
  };
}
