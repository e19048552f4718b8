import { describeNetworkError } from '../http/network-error.js';
import { isProblem, type Problem } from '../core/service/problems.js';
import { escapeControls } from '../text/escape-controls.js';
import { readRefusal } from './refusal-body.js';

/** Why a dev-API call failed. */
export type DevApiFailure =
  /** The server did not answer. */
  | 'network'
  /** The dev API needs an admin token, and none (or a wrong one) was sent. */
  | 'admin-token'
  /** The dev API is off (the server listens beyond loopback without an admin token), or not a uas emulator. */
  | 'unavailable'
  /** The call was refused (a bad argument, a config change that does not fit, ...). */
  | 'refused'
  /** The answer could not be read: cut short, too large, or not JSON. */
  | 'bad-answer';

/** A failed dev-API call: what was called, why it failed, in one line. */
export class DevApiError extends Error {
  override readonly name = 'DevApiError';

  constructor(
    /** The call, such as `GET /__uas/health`. */
    readonly call: string,
    readonly failure: DevApiFailure,
    /** The HTTP status, when there was an answer. */
    readonly status: number | undefined,
    /** The problem the server answered, when it was one. */
    readonly problem: Problem | undefined,
    /** What the server said (its problem's detail, or the start of its answer), or the network error; one line, escaped. */
    readonly detail: string,
    message: string,
  ) {
    super(`${call}: ${message}`);
  }

  /** The server at `base` did not answer `call`. */
  static network(call: string, base: string, error: unknown): DevApiError {
    const detail = escapeControls(describeNetworkError(error), { keepNewlines: false });
    return new DevApiError(
      call,
      'network',
      undefined,
      undefined,
      detail,
      `cannot reach ${base}: ${detail}`,
    );
  }

  /** `call` was answered with something that cannot be read. */
  static badAnswer(call: string, reason: string): DevApiError {
    return new DevApiError(call, 'bad-answer', undefined, undefined, reason, reason);
  }

  /**
   * `call` was answered, but not as a uas dev API answers it (`why`): another server, such as an
   * app that answers every path with its page. The start of its `answer` is shown.
   */
  static notDevApi(call: string, status: number, why: string, answer: string): DevApiError {
    const detail = oneLine(answer, 100);
    return new DevApiError(
      call,
      'unavailable',
      status,
      undefined,
      detail,
      `not a uas dev API: ${why}; got ${detail === '' ? 'nothing' : detail}`,
    );
  }

  /** `call` was answered with an error status. */
  static async refused(call: string, answer: Response, tokenSent: boolean): Promise<DevApiError> {
    const text = await readRefusal(answer);
    let problem: Problem | undefined;
    try {
      const body: unknown = JSON.parse(text);
      problem = isProblem(body) ? body : undefined;
    } catch {
      problem = undefined;
    }
    const said =
      typeof problem?.detail === 'string' && problem.detail !== '' ? problem.detail : text;
    const detail = oneLine(said, 200);
    const kind = problem?.type.slice(problem.type.lastIndexOf(':') + 1);
    const make = (failure: DevApiFailure, message: string) =>
      new DevApiError(call, failure, answer.status, problem, detail, message);
    if (answer.status === 401 && kind === 'admin-token-required')
      return make(
        'admin-token',
        tokenSent
          ? 'the dev API refused the admin token'
          : 'the dev API needs an admin token (--admin-token, UAS_ADMIN_TOKEN or adminToken)',
      );
    if (answer.status === 404 && (problem === undefined || /dev API is off/.test(detail)))
      return make('unavailable', `no dev API here (${detail || 'not a uas emulator'})`);
    return make('refused', `${answer.status}${detail === '' ? '' : ` ${detail}`}`);
  }
}

/** Text a server sent, as one escaped line of `max` characters at most. */
function oneLine(text: string, max: number): string {
  const line = escapeControls(text.replace(/\s+/g, ' ').trim(), { keepNewlines: false });
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Whether a value is a {@link DevApiError}. */
export function isDevApiError(value: unknown): value is DevApiError {
  return value instanceof DevApiError;
}
