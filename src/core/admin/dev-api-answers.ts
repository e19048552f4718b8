import { andThen, recover, type MaybePromise } from '../async/maybe-promise.js';
import { isConfigError, type ConfigError } from '../config/config-error.js';
import type { EmulatorResponse } from '../service/exchange.js';
import {
  createProblem,
  type FieldError,
  type Problem,
  type ProblemKind,
} from '../service/problems.js';
import { DEV_API_PREFIX } from './dev-api-route.js';

/** Dev API answers are never cached. */
export const NO_STORE = { 'cache-control': 'no-store' } as const;

/** A JSON answer. */
export const json = (status: number, body: unknown): EmulatorResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...NO_STORE },
  body,
  delayMs: 0,
});

/** A problem answer. */
export const problem = (
  value: Problem,
  headers: Record<string, string> = {},
): EmulatorResponse => ({
  status: value.status,
  headers: { ...headers, 'content-type': 'application/problem+json', ...NO_STORE },
  body: value,
  delayMs: 0,
});

/** A problem of `kind` about the request to `path`. */
export const refuse = (
  kind: ProblemKind,
  detail: string,
  path: string,
  headers?: Record<string, string>,
): EmulatorResponse => problem(createProblem(kind, detail, { instance: path }), headers);

/** The 404 of a path the dev API has no resource at. */
export const notFound = (path: string): EmulatorResponse =>
  refuse(
    'not-found',
    `there is no dev API resource at ${path}; GET ${DEV_API_PREFIX} lists them`,
    path,
  );

/** The 400 of fields that do not fit, each named. */
export function invalid(path: string, errors: FieldError[]): EmulatorResponse {
  return problem(
    createProblem('invalid-request', errors.map((error) => error.detail).join('; '), {
      instance: path,
      errors,
    }),
  );
}

/** The 501 of a route whose provider the emulator was assembled without. */
export const notProvided = (path: string): EmulatorResponse =>
  refuse(
    'not-implemented',
    `${path} needs what the emulator of uas (createEmulator) provides; this core emulator was assembled without it`,
    path,
  );

/** A problem that lists each issue of a config error with a JSON pointer under `prefix`. */
export function configProblem(
  kind: 'invalid-config' | 'invalid-request',
  error: ConfigError,
  path: string,
  prefix: string,
): EmulatorResponse {
  const errors = error.issues.map((issue) => ({
    detail: issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`,
    pointer: `#${prefix}${issue.pointer}`,
  }));
  return problem(
    createProblem(kind, errors.map((entry) => entry.detail).join('; '), {
      instance: path,
      errors,
    }),
  );
}

/**
 * The answer of a change (`run`) that throws a ConfigError (at once, or later from a shared
 * emulator) when it does not fit: `ok` of its result, or `refused` of the error.
 */
export function unlessInvalid<T>(
  run: () => MaybePromise<T>,
  ok: (value: T) => EmulatorResponse,
  refused: (error: ConfigError) => EmulatorResponse,
): MaybePromise<EmulatorResponse> {
  const fail = (error: unknown): EmulatorResponse => {
    if (!isConfigError(error)) throw error;
    return refused(error);
  };
  try {
    return recover(andThen(run(), ok), fail);
  } catch (error) {
    return fail(error);
  }
}
