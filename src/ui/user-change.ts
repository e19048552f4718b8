import type { DevAnswer } from './dev-api.js';
import { formatCount, oneLine } from './format.js';

/** What the Users form asks of the dev API. */
export type UserAction = 'add' | 'remove';

/** A user as the form gives it: a phone number and token_count as typed (empty: none, 0). */
export interface UserFields {
  phone: string;
  tokens: string;
}

/** A user as the dev API shows it. */
export interface ShownUser {
  email: string;
  phone_number?: string | undefined;
  token_count: number;
}

/**
 * The dev-API call that adds (with `fields`) or removes the user with `email`. A token_count that
 * is no whole number is sent as typed, for the server to refuse in its own words.
 */
export function userCall(
  action: UserAction,
  email: string,
  fields: UserFields = { phone: '', tokens: '' },
): { method: 'POST' | 'DELETE'; path: string; body?: unknown } {
  if (action === 'remove') return { method: 'DELETE', path: `/users/${encodeURIComponent(email)}` };
  const phone = fields.phone.trim();
  const tokens = fields.tokens.trim();
  const user = {
    email,
    ...(phone === '' ? {} : { phone_number: phone }),
    ...(tokens === '' ? {} : { token_count: /^\d{1,15}$/.test(tokens) ? Number(tokens) : tokens }),
  };
  return { method: 'POST', path: '/users', body: { users: [user] } };
}

/** What to ask before Add replaces a user that is there: what it has, and what it would have. */
export function replaceQuestion(existing: ShownUser, fields: UserFields): string {
  const phone = (text: string | undefined) =>
    text === undefined || text === '' ? 'no phone number' : `phone ${oneLine(text, 32)}`;
  const tokens = fields.tokens.trim() === '' ? '0' : oneLine(fields.tokens.trim(), 32);
  return `${oneLine(existing.email, 254)} is a user already (${phone(existing.phone_number)}, token_count ${existing.token_count}). Replace it with ${phone(fields.phone.trim())}, token_count ${tokens}?`;
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
