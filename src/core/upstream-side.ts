import type { MaybePromise } from './async/maybe-promise.js';
import type { RequestContext } from './answer-request.js';
import type { EmulatorRequest } from './service/exchange.js';
import { finishUpstreamRecord, type UpstreamAnswer } from './service/upstream-answer.js';
import {
  admitUpstreamRequest,
  type EnforceMode,
  type UpstreamAdmission,
  type UpstreamCaller,
} from './service/upstream-request.js';

export type { UpstreamAnswer } from './service/upstream-answer.js';
export type { EnforceMode, UpstreamAdmission, UpstreamCaller } from './service/upstream-request.js';

/**
 * The emulator in front of the real service (`uas serve --upstream`): it reads and counts each
 * request as its own, then journals what the real service answered, so the journal, events,
 * `uas check` and `uas top` see real traffic as they see emulated traffic. The forwarding itself
 * is the proxy's (outside the core).
 */
export interface UpstreamSide {
  /** Reads a request bound for the real service; an answer made here is not forwarded. */
  admit(
    request: EmulatorRequest,
    caller: UpstreamCaller,
    enforce: EnforceMode,
  ): MaybePromise<UpstreamAdmission>;
  /** Journals, counts and announces a request once it was answered (here or by the real service). */
  settle(admission: UpstreamAdmission, answer: UpstreamAnswer, caller: UpstreamCaller): void;
}

/** The upstream side over an emulator's request context. */
export function createUpstreamSide(
  context: RequestContext,
  recordRequest: (context: RequestContext, record: UpstreamAdmission['record']) => void,
): UpstreamSide {
  return {
    admit: (request, caller, enforce) =>
      admitUpstreamRequest(
        context.pipeline,
        context.service,
        request,
        caller,
        enforce,
        context.clock.now(),
      ),
    settle(admission, answer, caller) {
      const secrets = caller.token === undefined ? [] : [caller.token];
      const { record } = admission;
      if (admission.answer === undefined)
        finishUpstreamRecord(record, answer, context.clock.now(), secrets);
      recordRequest(context, record);
    },
  };
}
