import type { Operation, ResolvedConfig } from '../core/config/config.js';
import { authenticate } from '../core/service/auth.js';
import type { InputRules } from '../core/service/input-rules.js';
import { createProblem, type Problem, type ProblemKind } from '../core/service/problems.js';
import { readBodyInput, readExistsInput } from '../core/service/request-input.js';
import { createDirectory } from '../core/signin/directory.js';

/** Where an example request went, and what it named. */
export interface ExampleRequest {
  operation: Operation;
  path: string;
  merchantId: string;
  rules: InputRules;
  config: ResolvedConfig;
}

/** The answer of the request path to a body or query, which must be refused. */
function refusal(
  request: ExampleRequest,
  sent: { query?: string; body?: string; type?: string },
): Problem {
  const { operation, rules, path } = request;
  const input =
    operation === 'exists'
      ? readExistsInput(sent.query ?? '', rules, path)
      : readBodyInput(
          {
            method: 'POST',
            url: path,
            headers: { 'content-type': sent.type ?? 'application/json' },
            body: sent.body,
          },
          operation,
          rules,
          path,
        );
  if (input.ok) throw new Error(`the example request of ${operation} was not refused`);
  return input.problem;
}

/** The refusals the request path makes itself: their example is its own answer. */
function refusalExample(kind: ProblemKind, request: ExampleRequest): Problem | undefined {
  switch (kind) {
    case 'invalid-request':
      return request.operation === 'exists'
        ? refusal(request, { query: 'email=alice%40example&caller_id=' })
        : refusal(request, { body: '{"email":"alice@example","caller_id":""}' });
    case 'duplicate-parameter':
      return refusal(request, { query: 'email=alice%40example.com&email=bob%40example.com' });
    case 'malformed-json':
      return refusal(request, { body: '{"email":' });
    case 'unsupported-media-type':
      return refusal(request, {
        body: 'email=alice%40example.com',
        type: 'application/x-www-form-urlencoded',
      });
    case 'unauthorized': {
      const auth = authenticate(undefined, createDirectory({ clients: [], users: [] }));
      return createProblem(kind, auth.ok ? '' : auth.detail, { instance: request.path });
    }
    default:
      return undefined;
  }
}

/** The detail of a problem in the emulator's words, and its members besides `instance`. */
type Written = (request: ExampleRequest) => [detail: string, members?: Record<string, unknown>];

/** The other problems, as the emulator words them. */
const WRITTEN: Partial<Record<ProblemKind, Written>> = {
  'merchant-forbidden': ({ merchantId }) => [
    `merchant ${merchantId} does not belong to the client of this access token`,
    { merchant_id: merchantId },
  ],
  'merchant-not-found': ({ merchantId }) => [
    `no merchant has the id ${JSON.stringify(merchantId)}`,
    { merchant_id: merchantId },
  ],
  'user-not-found': ({ rules }) => [
    `no user has the e-mail ${rules.email.example}; add it to the users of the config, or live with POST /__uas/users`,
  ],
  'code-not-found': ({ rules }) => [
    `no sign-in was started for ${rules.email.example} at this merchant; call start first`,
  ],
  'code-used': () => ['the code was already used; call start for a new one'],
  'code-expired': () => ['the code has expired; call start for a new one'],
  'code-attempts-exhausted': () => [
    'too many wrong codes were tried; call start for a new one',
    { attempts_remaining: 0 },
  ],
  'code-invalid': ({ config }) => {
    const left = Math.max(0, config.otp.maxAttempts - 1);
    return [
      `the code is wrong; ${left} ${left === 1 ? 'attempt remains' : 'attempts remain'}`,
      { attempts_remaining: left },
    ];
  },
  'payload-too-large': ({ config }) => [
    `the body has ${config.maxBodyBytes + 1} bytes or more; at most ${config.maxBodyBytes} are accepted`,
  ],
  'request-timeout': () => ['the request was not sent in time'],
  'header-fields-too-large': () => ['the request line and headers are over 16384 bytes'],
  'internal-error': () => ['the emulator failed on this request: <what failed>'],
  'service-unavailable': () => [
    'a 503 scripted by failNext (POST /__uas/faults); the request did not run and the caller bucket was not charged',
  ],
  'store-unavailable': () => ['the shared store did not answer: <why>; nothing was changed'],
};

/** Problems answered before a request has a path to name: no `instance`. */
const WITHOUT_INSTANCE: ReadonlySet<ProblemKind> = new Set([
  'request-timeout',
  'header-fields-too-large',
]);

/**
 * An example body of a problem of `kind` answered to `request`. Refusals of the input are made by
 * the request path itself (`readExistsInput`, `readBodyInput`, `authenticate`), so their wording
 * and field errors are the emulator's; the rest are written in the words the emulator uses.
 */
export function problemExample(kind: ProblemKind, request: ExampleRequest): Problem {
  const refused = refusalExample(kind, request);
  if (refused !== undefined) return refused;
  const [detail, members = {}] = WRITTEN[kind]?.(request) ?? [`${kind} (an example)`];
  if (WITHOUT_INSTANCE.has(kind)) return createProblem(kind, detail);
  return createProblem(kind, detail, { instance: request.path, ...members });
}
