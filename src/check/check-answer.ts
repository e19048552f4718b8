import type { MaybePromise } from '../core/async/maybe-promise.js';
import type { RequestRecord } from '../core/records/records.js';
import type { GiveWay } from '../core/service/exchange.js';
import { checkIntegration, checkIntegrationPaced } from './check-integration.js';
import type { CheckReport } from './check-report.js';
import { droppedWarning, withWarnings } from './report-warnings.js';

/** What `GET /__uas/check` answers: the report, and how many requests the journal let go. */
export type CheckAnswer = CheckReport & { dropped: number };

/** What {@link checkAnswer} is told beside the records. */
export interface CheckAnswerContext {
  dropped: number;
  giveWay: GiveWay | undefined;
}

/**
 * uas check on the records of an emulator's journal, as `GET /__uas/check` answers it: its
 * warnings say how many older requests the journal let go (`dropped`). With `giveWay` (a
 * transport's), the check works a slice at a time, awaiting it in between; without it, at once.
 */
export function checkAnswer(
  records: readonly RequestRecord[],
  { dropped, giveWay }: CheckAnswerContext,
): MaybePromise<CheckAnswer> {
  return giveWay === undefined
    ? answerOf(checkIntegration(records), dropped)
    : checkIntegrationPaced(records, {}, giveWay).then((report) => answerOf(report, dropped));
}

/** How a paced check is computed: {@link checkIntegrationPaced}, or a stand-in in tests. */
export type PacedCheck = (
  records: readonly RequestRecord[],
  giveWay: GiveWay,
) => Promise<CheckReport>;

/**
 * {@link checkAnswer} for one emulator, computing each state of its journal once: a paced check of
 * the service requests a running one is already judging shares that one's answer, and so does a
 * check of service requests unchanged since the last answer. Dev-API requests (a health probe,
 * the check itself) do not change the state: they count only in the summary's `ignored`, which
 * each answer gives for its own records. A state is known by the number of service requests, the
 * requests the journal let go and its first and last service request (ids only grow, and a
 * journaled request does not change). Checks without `giveWay` are answered at once, as before.
 */
export function createCoalescedCheck(
  paced: PacedCheck = (records, giveWay) => checkIntegrationPaced(records, {}, giveWay),
): (records: readonly RequestRecord[], context: CheckAnswerContext) => MaybePromise<CheckAnswer> {
  let last: { state: string; answer: Promise<CheckAnswer> } | undefined;
  return (records, context) => {
    const { giveWay, dropped } = context;
    if (giveWay === undefined) return checkAnswer(records, context);
    const service = records.filter((record) => record.operation !== undefined);
    const ignored = records.length - service.length;
    const state = journalState(service, dropped);
    if (last?.state !== state) {
      const answer = paced(service, giveWay).then((report) => answerOf(report, dropped));
      const current = { state, answer };
      last = current;
      // A failed check is not kept: the next one computes again.
      answer.catch(() => {
        if (last === current) last = undefined;
      });
    }
    return last.answer.then((answer) => ({
      ...answer,
      summary: { ...answer.summary, ignored },
    }));
  };
}

function journalState(service: readonly RequestRecord[], dropped: number): string {
  const first = service[0];
  const last = service[service.length - 1];
  return JSON.stringify([service.length, dropped, first?.id, first?.at, last?.id, last?.at]);
}

function answerOf(report: CheckReport, dropped: number): CheckAnswer {
  return { ...withWarnings(report, [droppedWarning(dropped)]), dropped };
}
