import type { MaybePromise } from '../core/async/maybe-promise.js';
import type { RequestRecord } from '../core/records/records.js';
import type { GiveWay } from '../core/service/exchange.js';
import { checkIntegration, checkIntegrationPaced } from './check-integration.js';
import type { CheckReport } from './check-report.js';
import { droppedWarning, withWarnings } from './report-warnings.js';

/** What `GET /__uas/check` answers: the report, and how many requests the journal let go. */
export type CheckAnswer = CheckReport & { dropped: number };

/**
 * uas check on the records of an emulator's journal, as `GET /__uas/check` answers it: its
 * warnings say how many older requests the journal let go (`dropped`). With `giveWay` (a
 * transport's), the rules run one at a time, awaiting it in between; without it, at once.
 */
export function checkAnswer(
  records: readonly RequestRecord[],
  { dropped, giveWay }: { dropped: number; giveWay: GiveWay | undefined },
): MaybePromise<CheckAnswer> {
  const answer = (report: CheckReport): CheckAnswer => ({
    ...withWarnings(report, [droppedWarning(dropped)]),
    dropped,
  });
  return giveWay === undefined
    ? answer(checkIntegration(records))
    : checkIntegrationPaced(records, {}, giveWay).then(answer);
}
