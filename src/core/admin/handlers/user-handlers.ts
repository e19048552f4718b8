import { configProblem, invalid, json, refuse, unlessInvalid } from '../dev-api-answers.js';
import type { DevHandlers } from '../dev-api-handler.js';

/** The routes of users: add some, remove one. */
export const userHandlers = {
  addUsers: ({ target, body, path }) => {
    const users =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as { users?: unknown }).users
        : undefined;
    if (!Array.isArray(users))
      return invalid(path, [
        { detail: 'the body must be {"users": [{"email": ...}, ...]}', pointer: '#/users' },
      ]);
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
              `no user has the e-mail ${JSON.stringify(item)}; GET /__uas/config lists the users`,
              path,
            )
          : json(200, removed),
      (error) => configProblem('invalid-request', error, path, '/email'),
    ),
} satisfies Pick<DevHandlers, 'addUsers' | 'removeUser'>;
