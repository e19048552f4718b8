import type { EmulatorEvent } from '../records/records.js';

/** The first bytes of an event stream: how long a client waits before reconnecting. */
export const SSE_PREAMBLE = 'retry: 2000\n\n';

/** A comment line that keeps idle proxies from closing the stream. */
export const SSE_HEARTBEAT = ': heartbeat\n\n';

/** Formats one emulator event as a server-sent event named after its type. */
export function formatServerSentEvent(event: EmulatorEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
