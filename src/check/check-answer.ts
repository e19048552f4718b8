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
 * the journal a running one is already judging shares that one's answer, and so does a check of
 * a journal unchanged since the last answer. A journal's state is known by its size, the
 * requests it let go and its first and last request (ids only grow, and a journaled request does
 * not change). Checks without `giveWay` are answered at once, as before.
 */
export function createCoalescedCheck(
  paced: PacedCheck = (records, giveWay) => checkIntegrationPaced(records, {}, giveWay),
): (records: readonly RequestRecord[], context: CheckAnswerContext) => MaybePromise<CheckAnswer> {
  let last: { state: string; answer: Promise<CheckAnswer> } | undefined;
  return (records, context) => {
    const { giveWay, dropped } = context;
    if (giveWay === undefined) return checkAnswer(records, context);
    const state = journalState(records, dropped);
    if (last?.state === state) return last.answer;
    const answer = paced(records, giveWay).then((report) => answerOf(report, dropped));
    const current = { state, answer };
    last = current;
    // A failed check is not kept: the next one computes again.
    answer.catch(() => {
      if (last === current) last = undefined;
    });
    return answer;
  };
}

function journalState(records: readonly RequestRecord[], dropped: number): string {
  const first = records[0];
  const last = records[records.length - 1];
  return JSON.stringify([records.length, dropped, first?.id, first?.at, last?.id, last?.at]);
}

function answerOf(report: CheckReport, dropped: number): CheckAnswer {
  return { ...withWarnings(report, [droppedWarning(dropped)]), dropped };
}
