import * as z from 'zod/mini';
import { ConfigError } from '../config/config-error.js';
import { describeIssues, EMAIL_PATTERN } from '../config/config-schema.js';
import { whole } from '../config/schema-kit.js';
import type { Directory, User } from '../signin/directory.js';
import type { UserPage, UserQuery } from './admin.js';
import { MAX_USERS, USER_PAGE_MAX } from './dev-api-bounds.js';

/** The query of a page of users, within the bounds `GET /__uas/users` keeps. */
const userQuerySchema = z.optional(
  z.strictObject({
    offset: z.optional(whole(0, MAX_USERS)),
    limit: z.optional(whole(1, USER_PAGE_MAX)),
    email: z.optional(z.string()),
  }),
);

/**
 * `query`, when it is one `GET /__uas/users` takes; otherwise a ConfigError naming the field
 * (a misspelt one too: `limt` would be left out, and the page be the default's).
 */
export function checkUserQuery(query: UserQuery | undefined): UserQuery | undefined {
  const parsed = userQuerySchema.safeParse(query, { reportInput: true });
  if (!parsed.success)
    throw new ConfigError(describeIssues(parsed.error, userQuerySchema), 'invalid page of users');
  return parsed.data;
}

/**
 * One page of the users a directory holds: `limit` (default 1,000) from the `offset`-th, or with
 * `email` the user with that e-mail (a page of one, or of none). A query
 * out of the bounds the dev API keeps (a negative or fractional offset, a limit of 0) throws a
 * ConfigError naming it, as `GET /__uas/users` answers 400: a page it could not serve would give
 * a `next_offset` that skips or repeats users, or end a walk early.
 */
export function userPage(directory: Directory, query: UserQuery | undefined): UserPage {
  const { offset = 0, limit = 1000, email } = checkUserQuery(query) ?? {};
  if (email !== undefined) {
    // One user, found as the service finds it: the page holds it, or nothing. A text that is no
    // e-mail address finds none, though it lower-cases to one ("\u212Aim@..." to "kim@...").
    const user = EMAIL_PATTERN.test(email) ? directory.userByEmail(email) : undefined;
    const found = user === undefined || offset > 0 ? [] : [user];
    return {
      total: user === undefined ? 0 : 1,
      offset,
      next_offset: null,
      users: found.map(shown),
    };
  }
  const users = directory.listUsers(offset, limit).map(shown);
  const next = offset + users.length;
  return {
    total: directory.users,
    offset,
    next_offset: users.length > 0 && next < directory.users ? next : null,
    users,
  };
}

/** A user as a page shows it. */
function shown(user: User): UserPage['users'][number] {
  return {
    email: user.email,
    phone_number: user.phone_number,
    token_count: user.token_count,
  };
}
