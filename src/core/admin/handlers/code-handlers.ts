import { andThen, type MaybePromise } from '../../async/maybe-promise.js';
import type { EmulatorResponse } from '../../service/exchange.js';
import { invalid, json, refuse } from '../dev-api-answers.js';
import type { DevHandlers } from '../dev-api-handler.js';
import type { DevApiTarget } from '../dev-api-target.js';

/** The routes of one-time codes: every live one, or the latest of a user. */
export const codeHandlers = {
  listCodes: ({ target, query, path }) =>
    query.email === undefined
      ? andThen(target.listCodes(), (codes) => json(200, { codes }))
      : query.email.trim() === ''
        ? blankEmail(path, 'or no email for every live code', { parameter: 'email' })
        : latestCode(target, query.email, query.merchant_id, path),
  latestCode: ({ target, item, query, path }) =>
    item.trim() === ''
      ? blankEmail(path, 'in the path: /__uas/codes/{email}', {})
      : latestCode(target, item, query.merchant_id, path),
} satisfies Pick<DevHandlers, 'listCodes' | 'latestCode'>;

/** The 400 of an e-mail that is empty or only blanks: no code was ever issued for one. */
function blankEmail(path: string, hint: string, where: { parameter?: string }) {
  return invalid(path, [
    {
      detail: `email is empty: give the e-mail address the code was sent to, ${hint}`,
      pointer: '#/email',
      ...where,
    },
  ]);
}

function latestCode(
  target: DevApiTarget,
  email: string,
  merchantId: string | undefined,
  path: string,
): MaybePromise<EmulatorResponse> {
  return andThen(target.latestCode(email, merchantId), (code) => {
    if (code !== undefined) return json(200, code);
    const where = merchantId === undefined ? '' : ` at merchant ${merchantId}`;
    return refuse(
      'code-not-found',
      `no code was issued for ${email}${where}; call start first`,
      path,
    );
  });
}
