import { configProblem, invalid, json, refuse, unlessInvalid } from '../dev-api-answers.js';
import type { DevHandlers } from '../dev-api-handler.js';

/** The routes of users: list them, add some, remove one. */
export const userHandlers = {
  listUsers: ({ target, query }) =>
    json(200, target.listUsers({ offset: query.offset, limit: query.limit, email: query.email })),
  addUsers: ({ target, body, path }) => {
    const users =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as { users?: unknown }).users
        : undefined;
    if (!Array.isArray(users))
      return invalid(path, [
        { detail: 'the body must be {"users": [{"email": ...}, ...]}', pointer: '#/users' },
      ]);
    // Refused as its users' own unknown fields are: a misspelt field is a mistake to tell.
    const unknown = Object.keys(body as object).filter((key) => key !== 'users');
    if (unknown.length > 0)
      return invalid(
        path,
        unknown.slice(0, 10).map((key) => ({
          detail: `unknown field ${JSON.stringify(key.slice(0, 64))}: the body has users only`,
          pointer: `#/${key.slice(0, 64).replaceAll('~', '~0').replaceAll('/', '~1')}`,
        })),
      );
    return unlessInvalid(
      () => target.addUsers(users),
      (added) => json(200, added),
      (error) => configProblem('invalid-request', error, path, '/users'),
    );
  },
  removeUser: ({ target, item, path }) =>
    unlessInvalid(
      () => target.removeUser(item),
      (removed) =>
        removed === undefined
          ? refuse(
              'user-not-found',
              `no user has the e-mail ${JSON.stringify(item)}, among those of the config and those added live`,
              path,
            )
          : json(200, removed),
      (error) => configProblem('invalid-request', error, path, '/email'),
    ),
} satisfies Pick<DevHandlers, 'listUsers' | 'addUsers' | 'removeUser'>;
