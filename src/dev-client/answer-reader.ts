import { readResponseBody } from '../http/read-response-body.js';
import { DevApiError } from './dev-api-error.js';

/** The 404 problems that mean "there is none" (a code, a bucket, a user) rather than a failure. */
export type NoneProblem = 'code-not-found' | 'bucket-not-found' | 'user-not-found';

/** The call of a route: its answer, or undefined when it is the 404 `none` says means none. */
export type DevApiCall = (
  method: string,
  path: string,
  body?: unknown,
  none?: NoneProblem,
) => Promise<Response | undefined>;

/** A route's call (method and path after `/__uas`). */
export interface RouteCall {
  method: string;
  path: string;
}

/** How the dev client calls routes and reads their answers. */
export interface AnswerReader {
  call: DevApiCall;
  /** The answer's text, at most `maxResponseBytes`. */
  text(answer: Response, where: string): Promise<string>;
  /** Calls a route and reads its JSON answer. */
  read<T>(target: RouteCall, body?: unknown): Promise<T>;
  /** Calls a route that answers 404 `none` when there is nothing: undefined then. */
  readOrNone<T>(target: RouteCall, none: NoneProblem): Promise<T | undefined>;
}

/** Reads the answers of `call`, each at most `maxBytes`, as text or JSON. */
export function createAnswerReader(call: DevApiCall, maxBytes: number): AnswerReader {
  const text = async (answer: Response, where: string): Promise<string> => {
    const reading = await readResponseBody(answer, maxBytes);
    if (reading.kind === 'too-large')
      throw DevApiError.badAnswer(where, `${reading.error} (maxResponseBytes)`);
    if (reading.kind !== 'complete') throw DevApiError.badAnswer(where, reading.error);
    return reading.text;
  };
  const parse = async <T>(answer: Response, where: string): Promise<T> => {
    const body = await text(answer, where);
    try {
      return JSON.parse(body) as T;
    } catch {
      throw DevApiError.badAnswer(where, 'the answer is not JSON');
    }
  };
  const where = (target: RouteCall) => `${target.method} /__uas${target.path}`;
  return {
    call,
    text,
    read: async <T>(target: RouteCall, body?: unknown) =>
      parse<T>((await call(target.method, target.path, body))!, where(target)),
    async readOrNone<T>(target: RouteCall, none: NoneProblem) {
      const answer = await call(target.method, target.path, undefined, none);
      return answer === undefined ? undefined : parse<T>(answer, where(target));
    },
  };
}
