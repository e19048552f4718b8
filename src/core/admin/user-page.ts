import * as z from 'zod/mini';
import { ConfigError } from '../config/config-error.js';
import { describeIssues } from '../config/config-schema.js';
import { whole } from '../config/schema-kit.js';
import type { Directory } from '../signin/directory.js';
import type { UserPage, UserQuery } from './admin.js';
import { MAX_USERS, USER_PAGE_MAX } from './dev-api-bounds.js';

/** The query of a page of users, within the bounds `GET /__uas/users` keeps. */
const userQuerySchema = z.optional(
  z.strictObject({
    offset: z.optional(whole(0, MAX_USERS)),
    limit: z.optional(whole(1, USER_PAGE_MAX)),
  }),
);

/**
 * One page of the users a directory holds: `limit` (default 1,000) from the `offset`-th. A query
 * out of the bounds the dev API keeps (a negative or fractional offset, a limit of 0) throws a
 * ConfigError naming it, as `GET /__uas/users` answers 400: a page it could not serve would give
 * a `next_offset` that skips or repeats users, or end a walk early.
 */
export function userPage(directory: Directory, query: UserQuery | undefined): UserPage {
  const parsed = userQuerySchema.safeParse(query, { reportInput: true });
  if (!parsed.success)
    throw new ConfigError(describeIssues(parsed.error, userQuerySchema), 'invalid page of users');
  const { offset = 0, limit = 1000 } = parsed.data ?? {};
  const users = directory.listUsers(offset, limit).map((user) => ({
    email: user.email,
    phone_number: user.phone_number,
    token_count: user.token_count,
  }));
  const next = offset + users.length;
  return {
    total: directory.users,
    offset,
    next_offset: users.length > 0 && next < directory.users ? next : null,
    users,
  };
}
