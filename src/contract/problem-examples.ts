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

/**
 * An example body of a problem of `kind` answered to `request`. Refusals of the input are made by
 * the request path itself (`readExistsInput`, `readBodyInput`, `authenticate`), so their wording
 * and field errors are the emulator's; the rest are written in the words the emulator uses.
 */
export function problemExample(kind: ProblemKind, request: ExampleRequest): Problem {
  const { path: instance, merchantId, config } = request;
  const email = request.rules.email.example;
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
      return createProblem(kind, auth.ok ? '' : auth.detail, { instance });
    }
    case 'merchant-forbidden':
      return createProblem(
        kind,
        `merchant ${merchantId} does not belong to the client of this access token`,
        { instance, merchant_id: merchantId },
      );
    case 'merchant-not-found':
      return createProblem(kind, `no merchant has the id ${JSON.stringify(merchantId)}`, {
        instance,
        merchant_id: merchantId,
      });
    case 'user-not-found':
      return createProblem(
        kind,
        `no user has the e-mail ${email}; add it to the users of the config`,
        {
          instance,
        },
      );
    case 'code-not-found':
      return createProblem(
        kind,
        `no sign-in was started for ${email} at this merchant; call start first`,
        { instance },
      );
    case 'code-used':
      return createProblem(kind, 'the code was already used; call start for a new one', {
        instance,
      });
    case 'code-expired':
      return createProblem(kind, 'the code has expired; call start for a new one', { instance });
    case 'code-attempts-exhausted':
      return createProblem(kind, 'too many wrong codes were tried; call start for a new one', {
        instance,
        attempts_remaining: 0,
      });
    case 'code-invalid': {
      const left = Math.max(0, config.otp.maxAttempts - 1);
      return createProblem(
        kind,
        `the code is wrong; ${left} attempt${left === 1 ? '' : 's'} remain`,
        {
          instance,
          attempts_remaining: left,
        },
      );
    }
    case 'payload-too-large':
      return createProblem(
        kind,
        `the body has ${config.maxBodyBytes + 1} bytes or more; at most ${config.maxBodyBytes} are accepted`,
        { instance },
      );
    case 'request-timeout':
      return createProblem(kind, 'the request was not sent in time');
    case 'header-fields-too-large':
      return createProblem(kind, 'the header block is over 16384 bytes');
    case 'internal-error':
      return createProblem(kind, 'the emulator failed on this request: <what failed>', {
        instance,
      });
    case 'service-unavailable':
      return createProblem(
        kind,
        'a 503 scripted by failNext (POST /__uas/faults); the request did not run and the caller bucket was not charged',
        { instance },
      );
    case 'store-unavailable':
      return createProblem(kind, 'the shared store did not answer: <why>; nothing was changed', {
        instance,
      });
    default:
      return createProblem(kind, `${kind} (an example)`, { instance });
  }
}
