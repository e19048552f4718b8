import { json } from '../dev-api-answers.js';
import type { DevHandlers } from '../dev-api-handler.js';

/** The routes of recorded requests: the journal, and the requests that match a filter. */
export const requestHandlers = {
  journal: ({ target, query }) => json(200, { requests: target.journal(query.limit) }),
  listRequests: ({ target, query }) => {
    const { limit } = query;
    const callerId = query.caller_id;
    // One more than asked for tells whether the page was cut short.
    const requests = target.requests(
      {
        operation: query.operation,
        outcome: query.outcome,
        status: query.status,
        email: query.email,
        callerId: callerId === '' ? null : callerId,
        clientId: query.client_id,
        merchantId: query.merchant_id,
        afterId: query.after_id,
      },
      limit + 1,
    );
    const more = requests.length > limit;
    if (more) requests.pop();
    return json(200, {
      requests,
      dropped: target.requestsDropped,
      next_after_id: more ? (requests.at(-1)?.id ?? null) : null,
    });
  },
} satisfies Pick<DevHandlers, 'journal' | 'listRequests'>;
