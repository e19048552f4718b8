import type { DevAnswer } from './dev-api.js';
import { formatCount, oneLine } from './format.js';

/** What the Users form asks of the dev API. */
export type UserAction = 'add' | 'remove';

/** The dev-API call that adds or removes the user with `email`. */
export function userCall(
  action: UserAction,
  email: string,
): { method: 'POST' | 'DELETE'; path: string; body?: unknown } {
  return action === 'add'
    ? { method: 'POST', path: '/users', body: { users: [{ email }] } }
    : { method: 'DELETE', path: `/users/${encodeURIComponent(email)}` };
}

/** What the server did, in words, from its answer to a call of {@link userCall}. */
export function userChangeText(action: UserAction, answer: DevAnswer): string {
  const body = (answer.body ?? {}) as Record<string, unknown>;
  if (action === 'add')
    return Number(body.replaced) > 0 ? 'Replaced the user of that e-mail' : 'Added';
  const codes = Number(body.codes);
  const dropped = Number.isSafeInteger(codes) ? codes : 0;
  return `Removed ${oneLine(body.removed, 254)}; ${dropped} code${dropped === 1 ? '' : 's'} dropped`;
}

/** How many users the emulator has, and how many of them the list shows. */
export function usersShownText(total: number, shown: number): string {
  const all = `${formatCount(total)} user${total === 1 ? '' : 's'}`;
  return shown >= total ? all : `${all}; the first ${formatCount(shown)} shown`;
}
