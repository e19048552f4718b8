import type { ResolvedConfig } from '../config/config.js';
import type { Directory } from '../signin/directory.js';
import type { OtpCode, OtpStore, VerifyOutcome } from '../signin/otp-codes.js';
import { andThen, type MaybePromise } from '../async/maybe-promise.js';
import { createProblem, type Problem } from './problems.js';
import type { RandomSource } from '../time/random.js';
import type { OperationInput } from './request-input.js';

/** What an operation needs: state, config, time and randomness, all injected. */
export interface OperationContext {
  config: ResolvedConfig;
  directory: Directory;
  otp: OtpStore;
  random: RandomSource;
  now: number;
  /** Called with each code issued by start, for the dev API, the log and the event stream. */
  onCode(code: OtpCode): void;
}

/**
 * A successful answer, or a problem. `text` is the body already serialised, where the operation
 * can write it more cheaply than `JSON.stringify` (the exists answer, the one a flood asks for).
 */
export type OperationResult =
  { status: number; body: unknown; text?: string | undefined } | { problem: Problem };

/**
 * Checks the merchant of start and verify: unknown ids are 404, another client's merchant 403.
 * Runs before the operation, so a refused merchant changes nothing.
 */
export function checkMerchant(
  merchantId: string,
  clientId: string,
  directory: Directory,
  instance: string,
): Problem | undefined {
  const owner = directory.merchantOwner(merchantId);
  if (owner === undefined) {
    return createProblem(
      'merchant-not-found',
      `no merchant has the id ${JSON.stringify(merchantId)}`,
      { instance, merchant_id: merchantId },
    );
  }
  if (owner !== clientId) {
    return createProblem(
      'merchant-forbidden',
      `merchant ${merchantId} does not belong to the client of this access token`,
      { instance, merchant_id: merchantId },
    );
  }
  return undefined;
}

/** Runs one operation on validated input. */
export function runOperation(
  input: OperationInput,
  merchantId: string,
  context: OperationContext,
  instance: string,
): MaybePromise<OperationResult> {
  switch (input.operation) {
    case 'exists': {
      const user =
        input.email !== undefined
          ? context.directory.userByEmail(input.email)
          : context.directory.userByPhone(input.phone_number ?? '');
      const exists = user !== undefined;
      const count = user?.token_count ?? 0;
      return {
        status: 200,
        body: { exists, token_count: count },
        // token_count is an integer of the config: written as JSON.stringify would write it.
        text: `{"exists":${exists},"token_count":${count}}`,
      };
    }
    case 'start':
      return start(input.email, merchantId, context, instance);
    case 'verify':
      return verify(input.email, input.verification_code, merchantId, context, instance);
  }
}

function start(
  email: string,
  merchantId: string,
  context: OperationContext,
  instance: string,
): MaybePromise<OperationResult> {
  const user = context.directory.userByEmail(email);
  if (user === undefined) {
    return {
      problem: createProblem(
        'user-not-found',
        `no user has the e-mail ${email}; add it to the users of the config, or live with POST /__uas/users`,
        { instance },
      ),
    };
  }
  const { otp } = context.config;
  const code = otp.fixedCode ?? randomDigits(context.random, otp.length);
  const issued = context.otp.issue(
    merchantId,
    user.email,
    code,
    context.now,
    otp.ttlMs,
    otp.maxAttempts,
  );
  return andThen(issued, (record) => {
    context.onCode(record);
    return {
      status: 200,
      body: {
        sent: true,
        expires_in: Math.round(otp.ttlMs / 1000),
        attempts_allowed: otp.maxAttempts,
      },
    };
  });
}

function verify(
  email: string,
  candidate: string,
  merchantId: string,
  context: OperationContext,
  instance: string,
): MaybePromise<OperationResult> {
  // A user removed live signs in no more, even with a code another instance issued before it
  // heard of the removal: its verify is answered as that of an e-mail no sign-in was started for.
  if (context.directory.userByEmail(email) === undefined)
    return verifyAnswer({ result: 'not-found' }, email, merchantId, instance);
  return andThen(context.otp.verify(merchantId, email, candidate, context.now), (outcome) =>
    verifyAnswer(outcome, email, merchantId, instance),
  );
}

function verifyAnswer(
  outcome: VerifyOutcome,
  email: string,
  merchantId: string,
  instance: string,
): OperationResult {
  switch (outcome.result) {
    case 'verified':
      return {
        status: 200,
        body: { verified: true, email: outcome.code.email, merchant_id: merchantId },
      };
    case 'not-found':
      return {
        problem: createProblem(
          'code-not-found',
          `no sign-in was started for ${email} at this merchant; call start first`,
          { instance },
        ),
      };
    case 'expired':
      return {
        problem: createProblem('code-expired', 'the code has expired; call start for a new one', {
          instance,
        }),
      };
    case 'used':
      return {
        problem: createProblem('code-used', 'the code was already used; call start for a new one', {
          instance,
        }),
      };
    case 'exhausted':
      return {
        problem: createProblem(
          'code-attempts-exhausted',
          'too many wrong codes were tried; call start for a new one',
          { instance, attempts_remaining: 0 },
        ),
      };
    case 'wrong': {
      const left = outcome.attemptsLeft;
      const detail =
        left === 0
          ? 'the code is wrong; no attempts remain, call start for a new one'
          : `the code is wrong; ${left} ${left === 1 ? 'attempt remains' : 'attempts remain'}`;
      return {
        problem: createProblem('code-invalid', detail, { instance, attempts_remaining: left }),
      };
    }
  }
}

function randomDigits(random: RandomSource, length: number): string {
  let code = '';
  for (let index = 0; index < length; index++) code += String(Math.floor(random.next() * 10));
  return code;
}
