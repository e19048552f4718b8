import type { EmulatorEvent, RequestSummary } from '../records/records.js';

/**
 * The request events of one write, as a reader of summaries gets them
 * (`GET /__uas/events?requests=summary`): `from` is set on those another instance answered.
 */
export interface RequestsEvent {
  type: 'requests';
  requests: Array<RequestSummary & { from?: string }>;
}

/** The first bytes of an event stream: how long a client waits before reconnecting. */
export const SSE_PREAMBLE = 'retry: 2000\n\n';

/** A comment line that keeps idle proxies from closing the stream. */
export const SSE_HEARTBEAT = ': heartbeat\n\n';

/** Formats one emulator event as a server-sent event named after its type. */
export function formatServerSentEvent(event: EmulatorEvent | RequestsEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
