import { createParser } from 'eventsource-parser';
import type { BucketView } from '../core/limits/bucket-view.js';
import type { EmulatorEvent, RequestRecord } from '../core/admin/records.js';
import { describeNetworkError } from '../client/network-error.js';
import type { TuiSource } from './tui-source.js';

/** Options of {@link createDevApiSource}. */
export interface DevApiSourceOptions {
  /** Base URL of the emulator, such as `http://127.0.0.1:4010`. */
  url: string;
  adminToken?: string | undefined;
  /**
   * Milliseconds between reconnection attempts after the stream drops.
   * @default 1000
   */
  retryMs?: number;
}

/**
 * A source over a running emulator's dev API: server-sent events from `/__uas/events` (parsed
 * with eventsource-parser) and the bucket list from `/__uas/buckets`. Reconnects by itself.
 */
export function createDevApiSource(options: DevApiSourceOptions): TuiSource {
  const base = options.url.replace(/\/+$/, '');
  const headers: Record<string, string> =
    options.adminToken === undefined ? {} : { authorization: `Bearer ${options.adminToken}` };
  const call = async (path: string, init: RequestInit = {}) => {
    const answer = await fetch(`${base}${path}`, {
      ...init,
      headers: { ...headers, ...(init.headers as Record<string, string>) },
      signal: AbortSignal.timeout(5000),
    });
    if (!answer.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${answer.status}`);
    return answer;
  };
  return {
    label: base,
    subscribe(onEvent, onState) {
      let stopped = false;
      let controller: AbortController | undefined;
      const connect = async () => {
        while (!stopped) {
          controller = new AbortController();
          try {
            const answer = await fetch(`${base}/__uas/events`, {
              headers,
              signal: controller.signal,
            });
            if (!answer.ok || answer.body === null)
              throw new Error(`GET /__uas/events: ${answer.status}`);
            onState({ connected: true });
            const parser = createParser({
              onEvent: (message) => {
                try {
                  onEvent(JSON.parse(message.data) as EmulatorEvent);
                } catch {
                  // a malformed event is skipped, not fatal
                }
              },
            });
            const decoder = new TextDecoder();
            for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>)
              parser.feed(decoder.decode(chunk, { stream: true }));
            if (!stopped)
              onState({ connected: false, problem: 'the emulator closed the event stream' });
          } catch (error) {
            if (stopped) return;
            onState({ connected: false, problem: describeNetworkError(error) });
          }
          if (!stopped)
            await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 1000));
        }
      };
      void connect();
      return () => {
        stopped = true;
        controller?.abort();
      };
    },
    async listBuckets(query) {
      const params = new URLSearchParams();
      if (query.sort !== undefined) params.set('sort', query.sort);
      if (query.search !== undefined && query.search !== '') params.set('search', query.search);
      if (query.limit !== undefined) params.set('limit', String(query.limit));
      return (await (await call(`/__uas/buckets?${params}`)).json()) as {
        total: number;
        buckets: BucketView[];
      };
    },
    async reset(key) {
      await call(
        key === undefined ? '/__uas/buckets' : `/__uas/buckets/${encodeURIComponent(key)}`,
        { method: 'DELETE' },
      );
    },
    async recent(limit) {
      return (
        (await (await call(`/__uas/journal?limit=${limit}`)).json()) as {
          requests: RequestRecord[];
        }
      ).requests;
    },
    async uptime() {
      try {
        return ((await (await call('/__uas/health')).json()) as { uptime_ms?: number }).uptime_ms;
      } catch {
        return undefined;
      }
    },
  };
}
