import type { MaybePromise } from '../async/maybe-promise.js';
import type { ResolvedConfig } from '../config/config.js';
import type { RequestRecord } from '../records/records.js';
import type { GiveWay } from '../service/exchange.js';
import type { ServedDocument } from './dev-api-table.js';

/**
 * What two routes of the dev API need from above the core: the emulator's assembly
 * (`src/emulator.ts`) hands them down, so the core imports neither the integration check nor the
 * contract. Without them, `GET /__uas/check` and `GET /__uas/openapi.json` answer 501.
 */
export interface DevApiProviders {
  /**
   * The report of `uas check` on `records` (the journal, oldest first), saying that `dropped`
   * older requests were let go. With `giveWay` it may run a step at a time, awaiting it between
   * steps; without, it answers at once.
   */
  checkReport(
    records: RequestRecord[],
    context: { dropped: number; giveWay: GiveWay | undefined },
  ): MaybePromise<unknown>;
  /**
   * The OpenAPI document `GET /__uas/openapi.json` serves under the running config, naming the
   * server the request was sent to (its `Host`), or the one that answered (`localOrigin`),
   * followed by the path an app mounts the emulator under (`mountPath`).
   */
  servedDocument(
    config: ResolvedConfig,
    which: ServedDocument,
    host: string | undefined,
    localOrigin: string | undefined,
    mountPath?: string,
  ): unknown;
}
