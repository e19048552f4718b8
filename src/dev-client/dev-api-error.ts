import { describeNetworkError } from '../client/network-error.js';
import { isProblem, type Problem } from '../core/service/problems.js';
import { escapeControls } from '../text/escape-controls.js';

/** Why a dev-API call failed. */
export type DevApiFailure =
  /** The server did not answer. */
  | 'network'
  /** The dev API needs an admin token, and none (or a wrong one) was sent. */
  | 'admin-token'
  /** The dev API is off (the server listens beyond loopback without an admin token), or not a uas emulator. */
  | 'unavailable'
  /** The call was refused (a bad argument, a config change that does not fit, ...). */
  | 'refused';

/** A failed dev-API call: what was called, why it failed, in one line. */
export class DevApiError extends Error {
  override readonly name = 'DevApiError';

  constructor(
    message: string,
    readonly failure: DevApiFailure,
    /** The HTTP status, when there was an answer. */
    readonly status: number | undefined,
    /** The problem the server answered, when it was one. */
    readonly problem: Problem | undefined,
  ) {
    super(message);
  }

  /** The server at `base` did not answer `where`. */
  static network(where: string, base: string, error: unknown): DevApiError {
    return new DevApiError(
      `${where}: cannot reach ${base}: ${escapeControls(describeNetworkError(error))}`,
      'network',
      undefined,
      undefined,
    );
  }

  /** `where` was answered with an error status. */
  static async refused(where: string, answer: Response, tokenSent: boolean): Promise<DevApiError> {
    let problem: Problem | undefined;
    try {
      const body: unknown = JSON.parse((await answer.text()).slice(0, 65_536));
      problem = isProblem(body) ? body : undefined;
    } catch {
      problem = undefined;
    }
    const kind = problem?.type.slice(problem.type.lastIndexOf(':') + 1);
    const detail = escapeControls(String(problem?.detail ?? answer.statusText).slice(0, 300), {
      keepNewlines: false,
    });
    if (answer.status === 401 && kind === 'admin-token-required')
      return new DevApiError(
        tokenSent
          ? `${where}: the dev API refused the admin token`
          : `${where}: the dev API needs an admin token (--admin-token, UAS_ADMIN_TOKEN or adminToken)`,
        'admin-token',
        401,
        problem,
      );
    if (answer.status === 404 && (problem === undefined || /dev API is off/.test(detail)))
      return new DevApiError(
        `${where}: no dev API here (${detail || 'not a uas emulator'})`,
        'unavailable',
        404,
        problem,
      );
    return new DevApiError(
      `${where}: ${answer.status} ${detail}`.trimEnd(),
      'refused',
      answer.status,
      problem,
    );
  }
}

/** Whether a value is a {@link DevApiError}. */
export function isDevApiError(value: unknown): value is DevApiError {
  return value instanceof DevApiError;
}
