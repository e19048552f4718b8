import type { UserPage } from '../core/admin/admin.js';
import type { CodeRecord, RequestRecord } from '../core/records/records.js';
import type { BucketView } from '../core/limits/bucket-view.js';
import { faultBody, type Fault } from '../core/service/faults.js';
import type { AnswerReader } from './answer-reader.js';
import type { BucketPage, ClockView, DevClient } from './dev-client.js';
import { readHealth } from './dev-health.js';
import { readRequestLog } from './read-request-log.js';
import { checkUserQuery } from '../core/admin/user-page.js';
import { routeTarget } from './route-target.js';

/** The methods of a dev client at `base`, each calling its route of the dev API's table. */
export function devClientMethods(base: string, reader: AnswerReader): DevClient {
  const { call, text, read, readOrNone } = reader;
  return {
    url: base,
    health: () => readHealth(reader),
    // Async: a bad item (an empty e-mail) is a rejection, as every failure of a call.
    latestCode: async (email, merchantId) =>
      readOrNone<CodeRecord>(
        routeTarget('latestCode', { item: email, query: { merchant_id: merchantId } }),
        'code-not-found',
      ),
    codes: async () => (await read<{ codes: CodeRecord[] }>(routeTarget('listCodes'))).codes,
    async requests(filter = {}) {
      return (await this.requestLog(filter)).requests;
    },
    requestLog: (filter = {}) => readRequestLog(read, filter),
    journal: async (limit = 1000) =>
      (await read<{ requests: RequestRecord[] }>(routeTarget('journal', { query: { limit } })))
        .requests,
    buckets: (query = {}) => read<BucketPage>(routeTarget('listBuckets', { query })),
    bucket: async (key) =>
      readOrNone<BucketView>(routeTarget('getBucket', { item: key }), 'bucket-not-found'),
    async resetBuckets(key) {
      const target =
        key === undefined ? routeTarget('resetBuckets') : routeTarget('resetBucket', { item: key });
      await call(target.method, target.path);
    },
    async reset() {
      const { method, path } = routeTarget('reset');
      await call(method, path);
    },
    configure: (patch) => read(routeTarget('changeConfig'), patch),
    config: () => read(routeTarget('getConfig')),
    // A misspelt field would be left out of the query, and the page be the default's.
    users: async (query = {}) => {
      checkUserQuery(query);
      return read<UserPage>(routeTarget('listUsers', { query }));
    },
    addUsers: (users) =>
      read<{ added: number; replaced: number }>(routeTarget('addUsers'), { users }),
    removeUser: async (email) =>
      readOrNone<{ removed: string; codes: number }>(
        routeTarget('removeUser', { item: email }),
        'user-not-found',
      ),
    failNext: async (fault) =>
      (await read<{ fault: Fault }>(routeTarget('failNext'), faultBody(fault))).fault,
    faults: async () => (await read<{ faults: Fault[] }>(routeTarget('listFaults'))).faults,
    async clearFaults() {
      const { method, path } = routeTarget('clearFaults');
      await call(method, path);
    },
    clock: () => read<ClockView>(routeTarget('getClock')),
    advanceClock: (ms) => read<ClockView>(routeTarget('moveClock'), { advance_ms: ms }),
    setClock: (time) =>
      read<ClockView>(routeTarget('moveClock'), {
        set: time instanceof Date ? time.toISOString() : time,
      }),
    async metrics() {
      const { method, path } = routeTarget('metrics');
      return text((await call(method, path))!, `${method} /__uas${path}`);
    },
  };
}
