/** A field error inside a validation problem: which field, and what is wrong with it. */
export interface FieldError {
  detail: string;
  /** JSON pointer (as a URI fragment) to the field in the body, or in the query seen as an object. */
  pointer: string;
  /** For query parameters: the parameter's name. */
  parameter?: string;
}

/** An RFC 9457 problem, sent as `application/problem+json`. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

/** The problem types the emulator answers with; docs/service.md lists them. */
export const PROBLEM_KINDS = {
  'invalid-request': { status: 400, title: 'The request is not valid' },
  'malformed-http': { status: 400, title: 'The request is not valid HTTP' },
  'malformed-json': { status: 400, title: 'The body is not valid JSON' },
  'duplicate-parameter': { status: 400, title: 'A parameter is given more than once' },
  unauthorized: { status: 401, title: 'Authentication is required' },
  'admin-token-required': { status: 401, title: 'The dev API needs the admin token' },
  'merchant-forbidden': { status: 403, title: 'The merchant belongs to another client' },
  'cross-origin-refused': {
    status: 403,
    title: 'The dev API refuses writes, and reads of traffic, from other origins',
  },
  'host-not-allowed': { status: 403, title: 'The dev API does not answer this host name' },
  'code-attempts-exhausted': { status: 403, title: 'Too many wrong codes' },
  'not-found': { status: 404, title: 'No such resource' },
  'merchant-not-found': { status: 404, title: 'Unknown merchant' },
  'user-not-found': { status: 404, title: 'Unknown user' },
  'code-not-found': { status: 404, title: 'No sign-in was started' },
  'bucket-not-found': { status: 404, title: 'Unknown bucket' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'request-timeout': { status: 408, title: 'The request was not sent in time' },
  'code-used': { status: 409, title: 'The code was already used' },
  'clock-not-manual': { status: 409, title: 'The clock cannot be moved' },
  'faults-not-applied': {
    status: 409,
    title: 'Faults do not apply in front of the real service',
  },
  'users-not-applied': {
    status: 409,
    title: 'Users do not apply in front of the real service',
  },
  'codes-not-seen': {
    status: 409,
    title: 'The real service sends the codes; uas in front of it never sees them',
  },
  'code-expired': { status: 410, title: 'The code has expired' },
  'payload-too-large': { status: 413, title: 'The body is too large' },
  'unsupported-media-type': { status: 415, title: 'The body must be application/json' },
  'expectation-failed': { status: 417, title: 'The expectation cannot be met' },
  'header-fields-too-large': { status: 431, title: 'The request header fields are too large' },
  'code-invalid': { status: 422, title: 'The code is wrong' },
  'invalid-config': { status: 422, title: 'The config change does not fit' },
  'internal-error': { status: 500, title: 'The emulator failed' },
  'upstream-failed': { status: 502, title: 'The real service gave no usable answer' },
  'upstream-timeout': { status: 504, title: 'The real service did not answer in time' },
  'loop-detected': { status: 508, title: 'The request came back to the uas that forwarded it' },
  'not-implemented': { status: 501, title: 'The emulator was assembled without this route' },
  'service-unavailable': { status: 503, title: 'The service is unavailable' },
  'store-unavailable': { status: 503, title: 'The shared store is unreachable' },
  'too-many-event-readers': { status: 503, title: 'Too many event readers' },
} as const;

/** A problem kind of {@link PROBLEM_KINDS}. */
export type ProblemKind = keyof typeof PROBLEM_KINDS;

/** The problem type URI of a kind. */
export function problemType(kind: ProblemKind): string {
  return `urn:uas:problem:${kind}`;
}

/**
 * The problem type registered with IANA by the IETF RateLimit draft for an exceeded quota; the
 * 429 body uses it so generic clients recognise it.
 */
export const QUOTA_EXCEEDED_TYPE = 'https://iana.org/assignments/http-problem-types#quota-exceeded';

/**
 * The most characters any text of a problem has (`detail`, `instance`, a text extension, the
 * members of a field error). Such text may repeat the request (its path, a merchant id as sent),
 * so longer text is clipped, ending with "…": the OpenAPI document states this bound.
 */
export const PROBLEM_TEXT_MAX = 1024;

/** `text`, clipped to {@link PROBLEM_TEXT_MAX} characters. */
export function clipProblemText(text: string): string {
  return text.length <= PROBLEM_TEXT_MAX ? text : `${text.slice(0, PROBLEM_TEXT_MAX - 1)}…`;
}

/**
 * Builds a problem of `kind` with a specific `detail` and optional extension members; its text
 * is clipped to {@link PROBLEM_TEXT_MAX} characters.
 */
export function createProblem(
  kind: ProblemKind,
  detail: string,
  extensions: Record<string, unknown> = {},
): Problem {
  const { status, title } = PROBLEM_KINDS[kind];
  const problem: Problem = {
    type: problemType(kind),
    title,
    status,
    detail: clipProblemText(detail),
  };
  for (const [name, value] of Object.entries(extensions))
    problem[name] =
      typeof value === 'string'
        ? clipProblemText(value)
        : name === 'errors' && Array.isArray(value)
          ? value.map(clipFieldError)
          : value;
  return problem;
}

function clipFieldError(error: FieldError): FieldError {
  const clipped: FieldError = {
    detail: clipProblemText(error.detail),
    pointer: clipProblemText(error.pointer),
  };
  if (error.parameter !== undefined) clipped.parameter = clipProblemText(error.parameter);
  return clipped;
}

/** Whether a value has the shape of a {@link Problem}. */
export function isProblem(value: unknown): value is Problem {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.type === 'string' &&
    typeof candidate.status === 'number' &&
    typeof candidate.title === 'string'
  );
}
