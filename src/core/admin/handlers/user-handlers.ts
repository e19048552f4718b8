import { configProblem, invalid, json, unlessInvalid } from '../dev-api-answers.js';
import type { DevHandlers } from '../dev-api-handler.js';

/** The route that adds users. */
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
} satisfies Pick<DevHandlers, 'addUsers'>;
