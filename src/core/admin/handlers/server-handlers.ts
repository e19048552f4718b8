import { andThen, type MaybePromise } from '../../async/maybe-promise.js';
import type { RequestRecord } from '../../records/records.js';
import { headerValue, type GiveWay } from '../../service/exchange.js';
import { json, NO_STORE, notProvided, refuse } from '../dev-api-answers.js';
import type { DevHandlers } from '../dev-api-handler.js';
import { DEV_API_ROUTES } from '../dev-api-table.js';
import type { DevApiTarget } from '../dev-api-target.js';
import { SUMMARY_PACE_MS } from '../event-stream.js';

/**
 * Records read from the journal per step of a paced check: a record read for the first time has
 * its facts worked out (tens of µs), so a step stays within a few tens of milliseconds.
 */
const RECORDS_PER_STEP = 2_000;

/** The routes about the server itself: listing, health, reset, events, metrics, check, documents. */
export const serverHandlers = {
  listRoutes: () => json(200, { routes: DEV_API_ROUTES }),
  health: ({ target }) =>
    andThen(target.storeHealth(), (store) =>
      json(200, {
        status: 'ok',
        version: target.version,
        started_at: new Date(target.startedAt).toISOString(),
        // A manual clock set back before the start: no negative uptime.
        uptime_ms: Math.max(0, target.clock.now() - target.startedAt),
        // The process answers; how its shared store is is said here (a 503 otherwise).
        store,
      }),
    ),
  reset: ({ target }) => andThen(target.reset(), () => json(200, { reset: 'emulator' })),
  events: ({ target, path, query }) => {
    const stream = target.openEventStream(query.requests);
    if (stream === undefined)
      return refuse(
        'too-many-event-readers',
        'the most event readers allowed at once are reading; try again when one has gone',
        path,
        { 'retry-after': '5' },
      );
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream', ...NO_STORE },
      stream,
      // A reader of summaries (the dashboard) takes what comes in a tenth of a second at once.
      paceMs: query.requests === 'summary' ? SUMMARY_PACE_MS : 0,
      delayMs: 0,
    };
  },
  metrics: ({ target }) =>
    andThen(target.metrics(), (text) => ({
      status: 200,
      headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', ...NO_STORE },
      text,
      delayMs: 0,
    })),
  check: ({ target, providers, giveWay, path }) => {
    if (providers === undefined) return notProvided(path);
    return andThen(journalForCheck(target, giveWay), (records) =>
      andThen(
        providers.checkReport(records, { dropped: target.requestsDropped, giveWay }),
        (report) => json(200, report),
      ),
    );
  },
  openapi: ({ target, providers, query, request, path }) => {
    if (providers === undefined) return notProvided(path);
    const host = headerValue(request.headers, 'host');
    const which = query.document ?? 'service';
    return json(
      200,
      providers.servedDocument(target.config, which, host, request.localOrigin, request.mountPath),
    );
  },
} satisfies Pick<
  DevHandlers,
  'listRoutes' | 'health' | 'reset' | 'events' | 'metrics' | 'check' | 'openapi'
>;

/**
 * Every request the journal holds, oldest first. With `giveWay` (a transport's), read a slice at
 * a time, awaiting it in between: other requests are answered meanwhile. Without it, at once.
 */
function journalForCheck(
  target: DevApiTarget,
  giveWay: GiveWay | undefined,
): MaybePromise<RequestRecord[]> {
  return giveWay === undefined ? target.requests() : readPaced(target, giveWay);
}

async function readPaced(target: DevApiTarget, giveWay: GiveWay): Promise<RequestRecord[]> {
  const records: RequestRecord[] = [];
  for (;;) {
    const last = records.at(-1);
    const slice = target.requests(last === undefined ? {} : { afterId: last.id }, RECORDS_PER_STEP);
    for (const record of slice) records.push(record);
    if (slice.length < RECORDS_PER_STEP) return records;
    await giveWay();
  }
}
