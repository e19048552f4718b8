import type { IncomingMessage } from 'node:http';
import type { UpstreamAnswer } from '../core/upstream-side.js';
import type { TransportResponse } from '../transport/transport-exchange.js';
import { connectionNames, isForwarded } from './hop-by-hop.js';

/** Bytes of an answer's body kept for its record (a problem's `type` is near its start). */
const KEPT_BYTES = 16_384;

/** The real service's answer as uas relays it, and when it ends, what its record needs. */
export interface RelayLimits {
  maxBodyBytes: number;
  timeoutMs: number;
}

/**
 * Turns the real service's answer into the transport's: status and headers as sent (but those of
 * one connection), the body relayed as it arrives. The body may pause between parts for at most
 * `timeoutMs`, and pass `maxBodyBytes` never: either cuts the answer off, as a failing service
 * would. `settle` hears once how it ended, with the start of the body: once the answer was
 * written out whole, or cut short by the real service, or left by its client.
 */
export function relayAnswer(
  incoming: IncomingMessage,
  limits: RelayLimits,
  settle: (answer: UpstreamAnswer) => void,
): TransportResponse {
  const headers = relayedHeaders(incoming.rawHeaders);
  const lower = lowerCaseHeaders(incoming.rawHeaders);
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let bytes = 0;
  let finished = false;
  /** The relay was cancelled (its client left): nothing more goes into it. */
  let cancelled = false;
  const finish = (cut?: UpstreamAnswer['cut']) => {
    if (finished) return;
    finished = true;
    const body = Buffer.concat(kept).toString('utf8');
    settle({ status: incoming.statusCode ?? 0, headers: lower, body, ...(cut && { cut }) });
  };
  const relay = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        incoming.setTimeout(limits.timeoutMs, () =>
          incoming.destroy(new Error(`no part of the body came in ${limits.timeoutMs} ms`)),
        );
        incoming.on('data', (chunk: Buffer) => {
          // Destroyed (its client left, it was cut off), the answer still emits the parts it had
          // buffered: the relay takes none of them (a closed or errored one would throw).
          if (cancelled || incoming.destroyed) return;
          bytes += chunk.byteLength;
          if (bytes > limits.maxBodyBytes) {
            incoming.destroy(new Error(`the body passed ${limits.maxBodyBytes} bytes`));
            return;
          }
          if (keptBytes < KEPT_BYTES) {
            kept.push(chunk.subarray(0, KEPT_BYTES - keptBytes));
            keptBytes += Math.min(chunk.byteLength, KEPT_BYTES - keptBytes);
          }
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
        });
        let ended = false;
        // Whole from the real service; the record waits to hear whether it reached the client.
        incoming.on('end', () => {
          ended = true;
          if (!cancelled) controller.close();
        });
        // Not `complete`: a body read until the connection closes is complete when uas cut it.
        incoming.on('close', () => {
          if (ended) return;
          finish('upstream');
          controller.error(new Error('the real service cut its answer short'));
        });
        incoming.on('error', () => {});
      },
      pull() {
        incoming.resume();
      },
      // The transport cancels the relay only when the client has gone.
      cancel() {
        cancelled = true;
        finish('client');
        incoming.destroy();
      },
    },
    { highWaterMark: 8 },
  );
  return {
    status: incoming.statusCode ?? 502,
    headers,
    relay,
    delivered: (cut) => finish(cut),
  };
}

/** The answer's headers as sent (names in their case, repeated ones as a list), but hop-by-hop ones. */
function relayedHeaders(raw: string[]): Record<string, string | string[]> {
  const names = connectionNames(valuesOf(raw, 'connection'));
  const headers = Object.create(null) as Record<string, string | string[]>;
  const caseOf = new Map<string, string>();
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] as string;
    const value = raw[index + 1] as string;
    const lower = name.toLowerCase();
    if (!isForwarded(lower, names) && lower !== 'content-length') continue;
    const key = caseOf.get(lower) ?? name;
    caseOf.set(lower, key);
    const before = headers[key];
    headers[key] =
      before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return headers;
}

/** The answer's headers by lower-case name, repeated ones joined by a comma, for its record. */
function lowerCaseHeaders(raw: string[]): Record<string, string> {
  const headers = Object.create(null) as Record<string, string>;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = (raw[index] as string).toLowerCase();
    const value = raw[index + 1] as string;
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}

function valuesOf(raw: string[], name: string): string[] {
  const values: string[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2)
    if ((raw[index] as string).toLowerCase() === name) values.push(raw[index + 1] as string);
  return values;
}
