import { checkIntegration, checkIntegrationPaced } from '../../check/check-integration.js';
import type { CheckReport } from '../../check/check-report.js';
import { droppedWarning, withWarnings } from '../../check/report-warnings.js';
import type { AnyEmulator } from '../emulator.js';
import type { GiveWay } from '../service/exchange.js';
import type { MaybePromise } from '../async/maybe-promise.js';
import type { RequestRecord } from '../records/records.js';

/**
 * Records read from the journal per step of a paced check: a record read for the first time has
 * its facts worked out (tens of µs), so a step stays within a few tens of milliseconds.
 */
const RECORDS_PER_STEP = 2_000;

/** What `GET /__uas/check` answers: the report, and how many requests the journal let go. */
export type CheckAnswer = CheckReport & { dropped: number };

/**
 * uas check on every request the journal holds. With `giveWay` (a transport's), the journal is
 * read a slice at a time and the rules run one at a time, awaiting it in between: other requests
 * are answered meanwhile. Without it, at once.
 */
export function checkAnswer(
  emulator: AnyEmulator,
  giveWay: GiveWay | undefined,
): MaybePromise<CheckAnswer> {
  if (giveWay === undefined) return answerOf(checkIntegration(emulator.requests()), emulator);
  return paced(emulator, giveWay);
}

async function paced(emulator: AnyEmulator, giveWay: GiveWay): Promise<CheckAnswer> {
  const records: RequestRecord[] = [];
  for (;;) {
    const last = records.at(-1);
    const slice = emulator.requests(
      last === undefined ? {} : { afterId: last.id },
      RECORDS_PER_STEP,
    );
    for (const record of slice) records.push(record);
    if (slice.length < RECORDS_PER_STEP) break;
    await giveWay();
  }
  return answerOf(await checkIntegrationPaced(records, {}, giveWay), emulator);
}

function answerOf(report: CheckReport, emulator: AnyEmulator): CheckAnswer {
  const dropped = emulator.requestsDropped;
  return { ...withWarnings(report, [droppedWarning(dropped)]), dropped };
}
