import { andThen } from '../../async/maybe-promise.js';
import type { EmulatorResponse } from '../../service/exchange.js';
import { invalid, json, refuse } from '../dev-api-answers.js';
import type { DevHandlers } from '../dev-api-handler.js';

/** The routes of buckets: a page of them, one, and resets. */
export const bucketHandlers = {
  listBuckets: ({ target, query, path }) => {
    const { level, sort, limit, offset, client, search, after } = query;
    if (after !== undefined && sort !== 'key') {
      const detail = 'after is a key to go on from in key order: it needs sort=key';
      return invalid(path, [{ detail, pointer: '#/after', parameter: 'after' }]);
    }
    const clientId = client;
    const page = target.listBuckets({ level, sort, limit, offset, clientId, search, after });
    return andThen(page, ({ total, buckets }) => {
      const next = offset + buckets.length;
      const more = next < total;
      return json(200, {
        total,
        offset,
        buckets,
        next_offset: more ? next : null,
        next_after: more && sort === 'key' ? (buckets.at(-1)?.key ?? null) : null,
      });
    });
  },
  resetBuckets: ({ target }) =>
    andThen(target.listBuckets({ limit: 0 }), ({ total }) =>
      andThen(target.resetBuckets(), () => json(200, { reset: 'all', count: total })),
    ),
  getBucket: ({ target, item, path }) =>
    andThen(target.getBucket(item), (view) =>
      view === undefined ? bucketNotFound(item, path) : json(200, view),
    ),
  resetBucket: ({ target, item, path }) =>
    andThen(target.resetBuckets(item), (existed) =>
      existed ? json(200, { reset: [item] }) : bucketNotFound(item, path),
    ),
} satisfies Pick<DevHandlers, 'listBuckets' | 'resetBuckets' | 'getBucket' | 'resetBucket'>;

function bucketNotFound(key: string, path: string): EmulatorResponse {
  return refuse(
    'bucket-not-found',
    `no bucket has the key ${JSON.stringify(key)} (an unused bucket is full and not listed)`,
    path,
  );
}
