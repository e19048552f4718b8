import { readFaultBody } from '../../service/faults.js';
import { configProblem, json, unlessInvalid } from '../dev-api-answers.js';
import type { DevHandlers } from '../dev-api-handler.js';

/** The routes of scripted faults: list, add, clear. */
export const faultHandlers = {
  listFaults: ({ target }) => json(200, { faults: target.faults() }),
  failNext: ({ target, body, path }) =>
    unlessInvalid(
      () => target.failNext(readFaultBody(body)),
      (fault) => json(201, { fault }),
      (error) => configProblem('invalid-request', error, path, ''),
    ),
  clearFaults: ({ target }) => {
    const count = target.faults().length;
    target.clearFaults();
    return json(200, { cleared: count });
  },
} satisfies Pick<DevHandlers, 'listFaults' | 'failNext' | 'clearFaults'>;
