import { readRetryAfter } from '../../client/retry-after.js';
import { judgeRateLimitFields, type RateLimitReading } from '../../contract/rate-limit-fields.js';
import type { Answered, Check, CheckContext, CheckOutcome, SuiteOptions } from './conform-check.js';
import {
  callerOf,
  devApiCodeRequest,
  existsRequest,
  inventedToken,
  passwordlessRequest,
  probeEmail,
  WRONG_CODE,
} from './conform-requests.js';
import type { ConformRequest, Exchange } from './conform-sender.js';

/** The first characters of a body, on one line, to show beside an unexpected status. */
function excerpt(body: string): string {
  const text = body.replace(/\s+/g, ' ').trim();
  return text === '' ? '' : `: ${text.length > 160 ? `${text.slice(0, 160)}…` : text}`;
}

/**
 * The differences between an answer and what the contract says `operation` answers with
 * `expected`: no answer, another status, or (through the document) its content type, body and
 * headers other than the rate-limit fields, which `headers.rate-limit` judges.
 */
function differencesOf(
  context: CheckContext,
  operation: Answered['operation'],
  exchange: Exchange,
  expected: number,
): string[] {
  if (exchange.status === undefined) return [`no answer: ${exchange.error}`];
  if (exchange.error !== undefined)
    return [`${exchange.status} without a whole body: ${exchange.error}`];
  if (exchange.status !== expected)
    return [`expected ${expected}, got ${exchange.status}${excerpt(exchange.body)}`];
  return context.validator.check(operation, {
    status: exchange.status,
    headers: exchange.headers,
    body: exchange.body,
  });
}

/** A member of a JSON body, or undefined (the body was already checked against the contract). */
function member(exchange: Exchange, name: string): unknown {
  try {
    return (JSON.parse(exchange.body) as Record<string, unknown>)[name];
  } catch {
    return undefined;
  }
}

const outcome = (differences: string[]): CheckOutcome => ({ differences });

/** The checks that need a merchant. */
const needsMerchant = (options: SuiteOptions) =>
  options.merchantId === undefined
    ? "needs --merchant-id (a merchant of the token's client)"
    : undefined;

/** The checks that need a known user and a merchant. */
const needsUser = (options: SuiteOptions) =>
  options.email === undefined ? 'needs --email (a user the target knows)' : needsMerchant(options);

/** What the rate-limit fields of an answer say, when they are well-formed. */
function readingOf(context: CheckContext, exchange: Exchange): RateLimitReading | undefined {
  if (context.options.style === 'none' || exchange.status === undefined) return undefined;
  return judgeRateLimitFields(context.options.style, (name) => exchange.headers.get(name)).reading;
}

const authRequired: Check = {
  id: 'auth.required',
  title: 'a request without Authorization is refused with 401 and a Bearer challenge',
  unavailable: () => undefined,
  plan: (options) => [
    { request: existsRequest(probeEmail(options), callerOf(options, 'auth'), 'none') },
  ],
  cost: () => 1,
  async run(context, [request]) {
    const exchange = await context.send('exists', request!);
    return outcome(differencesOf(context, 'exists', exchange, 401));
  },
};

const authInvalid: Check = {
  id: 'auth.invalid-token',
  title: 'a request with an unknown token is refused with 401',
  unavailable: () => undefined,
  plan: (options) => [
    {
      request: existsRequest(probeEmail(options), callerOf(options, 'auth'), {
        authorization: `Bearer ${inventedToken(options)}`,
      }),
    },
  ],
  cost: () => 1,
  async run(context, [request]) {
    const exchange = await context.send('exists', request!);
    return outcome(differencesOf(context, 'exists', exchange, 401));
  },
};

const existsUnknown: Check = {
  id: 'exists.unknown-user',
  title: 'exists answers 200 {exists: false} for an address no user has',
  unavailable: () => undefined,
  plan: (options) => [{ request: existsRequest(probeEmail(options), callerOf(options, 'a')) }],
  cost: () => 1,
  async run(context, [request]) {
    const { options } = context;
    const exchange = await context.send('exists', request!);
    context.state.callerA.push(exchange);
    const differences = differencesOf(context, 'exists', exchange, 200);
    if (differences.length === 0 && member(exchange, 'exists') !== false)
      differences.push(
        `expected "exists": false for ${probeEmail(options)}, got ${JSON.stringify(member(exchange, 'exists'))}`,
      );
    return outcome(differences);
  },
};

const existsKnown: Check = {
  id: 'exists.known-user',
  title: 'exists answers 200 {exists: true} for the user of --email',
  unavailable: (options) =>
    options.email === undefined ? 'needs --email (a user the target knows)' : undefined,
  plan: (options) => [{ request: existsRequest(options.email ?? '', callerOf(options, 'a')) }],
  cost: () => 1,
  async run(context, [request]) {
    const email = context.options.email as string;
    const exchange = await context.send('exists', request!);
    context.state.callerA.push(exchange);
    const differences = differencesOf(context, 'exists', exchange, 200);
    if (differences.length === 0 && member(exchange, 'exists') !== true)
      differences.push(
        `expected "exists": true for ${email} (--email), got ${JSON.stringify(member(exchange, 'exists'))}`,
      );
    return outcome(differences);
  },
};

/** A validation problem names the field: an entry of `errors` points at it. */
function namesField(exchange: Exchange, pointer: string): string[] {
  const errors = member(exchange, 'errors');
  const pointers = Array.isArray(errors)
    ? errors.map((entry) => (entry as { pointer?: unknown }).pointer)
    : [];
  return pointers.includes(pointer)
    ? []
    : [
        `expected an entry of "errors" with "pointer": "${pointer}", got ${JSON.stringify(errors ?? null)}`,
      ];
}

const existsInvalid: Check = {
  id: 'exists.invalid-email',
  title: 'exists refuses an e-mail that is not one with a 400 problem naming the field',
  unavailable: () => undefined,
  plan: (options) => [{ request: existsRequest('not-an-email', callerOf(options, 'b')) }],
  cost: () => 1,
  async run(context, [request]) {
    const exchange = await context.send('exists', request!);
    const differences = differencesOf(context, 'exists', exchange, 400);
    return outcome(differences.length > 0 ? differences : namesField(exchange, '#/email'));
  },
};

const startInvalid: Check = {
  id: 'start.invalid-email',
  title: 'start refuses an e-mail that is not one with a 400 problem naming the field',
  unavailable: needsMerchant,
  plan: (options) => [
    {
      request: passwordlessRequest('start', options.merchantId ?? '', {
        email: 'not-an-email',
        caller_id: callerOf(options, 'b'),
      }),
    },
  ],
  cost: () => 1,
  async run(context, [request]) {
    const exchange = await context.send('start', request!);
    const differences = differencesOf(context, 'start', exchange, 400);
    return outcome(differences.length > 0 ? differences : namesField(exchange, '#/email'));
  },
};

const startAnswer: Check = {
  id: 'start.sends-code',
  title: 'start answers 200 with the documented body for the user of --email',
  unavailable: needsUser,
  plan: (options) => [
    {
      request: passwordlessRequest('start', options.merchantId ?? '', {
        email: options.email,
        caller_id: callerOf(options, 'c'),
      }),
    },
  ],
  cost: () => 1,
  async run(context, [request]) {
    const exchange = await context.send('start', request!);
    const differences = differencesOf(context, 'start', exchange, 200);
    context.state.started = exchange.status === 200;
    return outcome(differences);
  },
};

const verifyWrong: Check = {
  id: 'verify.wrong-code',
  title: 'verify refuses a wrong code (sent once) with 422 and the documented problem',
  unavailable: needsUser,
  plan: (options) => [
    {
      request: passwordlessRequest('verify', options.merchantId ?? '', {
        email: options.email,
        verification_code: WRONG_CODE,
        caller_id: callerOf(options, 'c'),
      }),
    },
  ],
  cost: () => 1,
  async run(context, [request]) {
    if (!context.state.started) return { skip: 'start.sends-code did not issue a code' };
    const exchange = await context.send('verify', request!);
    return outcome(differencesOf(context, 'verify', exchange, 422));
  },
};

/** The verify request of verify.signs-in, with the code read from the dev API. */
function verifyWith(options: SuiteOptions, code: string): ConformRequest {
  return passwordlessRequest('verify', options.merchantId ?? '', {
    email: options.email,
    verification_code: code,
    caller_id: callerOf(options, 'c'),
  });
}

const verifyAnswer: Check = {
  id: 'verify.signs-in',
  title: 'verify answers 200 with the documented body for the right code (read from a uas dev API)',
  unavailable: (options) =>
    !options.devApi
      ? 'needs --dev-api: the target is a uas emulator whose dev API gives the code'
      : needsUser(options),
  plan: (options) => [
    { request: devApiCodeRequest(options.email ?? '', options.merchantId ?? '') },
    { request: verifyWith(options, '<the code>') },
  ],
  cost: () => 2,
  async run(context, [readCode]) {
    const { options } = context;
    if (!context.state.started) return { skip: 'start.sends-code did not issue a code' };
    const email = options.email as string;
    const merchantId = options.merchantId as string;
    const read = await context.send('dev-api', readCode!);
    const code = read.status === 200 ? member(read, 'code') : undefined;
    // Only digits are sent on as a code: the dev API's answer is not trusted further.
    if (typeof code !== 'string' || !/^\d{1,32}$/.test(code))
      return {
        differences: [
          `the dev API did not give a code: ${read.status ?? 'no answer'}${read.status === undefined ? ` (${read.error})` : excerpt(read.body)}`,
        ],
      };
    const exchange = await context.send('verify', verifyWith(options, code));
    const differences = differencesOf(context, 'verify', exchange, 200);
    if (differences.length > 0) return outcome(differences);
    const got = { email: member(exchange, 'email'), merchant_id: member(exchange, 'merchant_id') };
    if (String(got.email).toLowerCase() !== email.toLowerCase())
      differences.push(
        `expected "email": ${JSON.stringify(email)}, got ${JSON.stringify(got.email)}`,
      );
    if (String(got.merchant_id).toLowerCase() !== merchantId.toLowerCase())
      differences.push(
        `expected "merchant_id": ${JSON.stringify(merchantId)}, got ${JSON.stringify(got.merchant_id)}`,
      );
    return outcome(differences);
  },
};

const callerBuckets: Check = {
  id: 'caller.separate-buckets',
  title: 'requests with one caller_id share a bucket; another caller_id has a bucket of its own',
  unavailable: (options) =>
    options.style === 'none'
      ? '--headers none: no rate-limit fields to read the buckets from'
      : undefined,
  plan: (options) => [
    ...(options.email === undefined
      ? [{ request: existsRequest(probeEmail(options), callerOf(options, 'a')) }]
      : []),
    { request: existsRequest(probeEmail(options), callerOf(options, 'd')) },
  ],
  cost: (context) => (context.state.callerA.length >= 2 ? 1 : 2),
  async run(context, planned) {
    const { options, state } = context;
    const a = callerOf(options, 'a');
    if (state.callerA.length < 2)
      state.callerA.push(await context.send('exists', existsRequest(probeEmail(options), a)));
    const fresh = await context.send('exists', planned.at(-1)!);
    const unanswered = [...state.callerA, fresh].filter(
      (exchange) => exchange.status === undefined,
    );
    if (unanswered.length > 0)
      return outcome(unanswered.map((exchange) => `no answer: ${exchange.error}`));
    const [first, second] = state.callerA.map((exchange) => readingOf(context, exchange));
    const other = readingOf(context, fresh);
    if (first === undefined || second === undefined || other === undefined)
      return {
        skip: 'the answers carry no well-formed rate-limit fields to compare (see headers.rate-limit)',
      };
    const differences: string[] = [];
    if (second.remaining >= first.remaining)
      differences.push(
        `two requests with caller_id ${a} left ${first.remaining} then ${second.remaining}: the second was not counted in the bucket of the first`,
      );
    if (other.remaining !== first.remaining)
      differences.push(
        `the first request with a new caller_id ${callerOf(options, 'd')} left ${other.remaining}, where the first with ${a} left ${first.remaining}: it was not counted in a fresh bucket of its own (is caller_id ignored?)`,
      );
    return outcome(differences);
  },
};

/** The quota of a caller bucket that the first of these answers to state one states. */
function statedQuota(context: CheckContext, exchanges: Exchange[]): number | undefined {
  return exchanges
    .map((exchange) => readingOf(context, exchange)?.limit)
    .find((limit) => limit !== undefined);
}

/** What the exhaustion needs: a fresh bucket's quota, then the request it refuses. */
const needed = (quota: number) => quota + 1;

/** Why the exhaustion is skipped when the budget cannot pay for what it needs (as the suite says it). */
const cannotAfford = (quota: number, budget: number) =>
  `needs ${needed(quota)} requests; ${budget} of the budget left (raise --max-requests)`;

const callerExhausted: Check = {
  id: 'limit.caller-exhausted',
  title: 'a caller bucket runs out: 429 with Retry-After and the documented problem',
  unavailable: (options) => (options.exhaust ? undefined : 'opt-in: --exhaust spends real quota'),
  plan: (options) => [
    {
      request: existsRequest(probeEmail(options), callerOf(options, 'e')),
      repeat: 'until a 429: at most the quota its first answer states, plus one',
    },
  ],
  // Without a stated quota yet, its first answer tells how many it needs.
  cost: (context) => {
    const quota = statedQuota(context, context.state.callerA);
    return quota === undefined ? 1 : needed(quota);
  },
  async run(context, [request]) {
    const { options } = context;
    const budget = context.remaining();
    let quota = statedQuota(context, context.state.callerA);
    for (let sent = 1; quota === undefined || sent <= needed(quota); sent++) {
      if (context.remaining() === 0)
        return {
          skip: `no 429 within the ${sent - 1} requests the budget allowed, and no answer stated a quota to tell how many it takes (raise --max-requests)`,
        };
      const exchange = await context.send('exists', request!);
      if (exchange.status === 429) {
        context.state.limited = exchange;
        return outcome(differencesOf(context, 'exists', exchange, 429));
      }
      const differences = differencesOf(context, 'exists', exchange, 200);
      if (differences.length > 0)
        return outcome(differences.map((line) => `request ${sent}: ${line}`));
      if (quota === undefined) {
        quota = statedQuota(context, [exchange]);
        if (quota !== undefined && needed(quota) > budget)
          return { skip: cannotAfford(quota, budget) };
      }
    }
    return outcome([
      `no 429 after ${needed(quota)} requests with caller_id ${callerOf(options, 'e')}: a fresh bucket holds the ${quota} its answers state`,
    ]);
  },
};

const otherCaller: Check = {
  id: 'limit.other-caller-unaffected',
  title: 'right after that 429, a request with another caller_id is answered 200',
  unavailable: (options) => (options.exhaust ? undefined : 'opt-in: --exhaust spends real quota'),
  plan: (options) => [{ request: existsRequest(probeEmail(options), callerOf(options, 'f')) }],
  cost: () => 1,
  async run(context, [request]) {
    if (context.state.limited === undefined) return { skip: 'limit.caller-exhausted got no 429' };
    const exchange = await context.send('exists', request!);
    return outcome(differencesOf(context, 'exists', exchange, 200));
  },
};

const retryAfterHonoured: Check = {
  id: 'limit.retry-after-honoured',
  title: 'waiting Retry-After lets the next request of the limited caller_id through',
  unavailable: (options) => (options.exhaust ? undefined : 'opt-in: --exhaust spends real quota'),
  plan: (options) => [
    {
      request: existsRequest(probeEmail(options), callerOf(options, 'e')),
      repeat: 'once, after waiting Retry-After',
    },
  ],
  cost: () => 1,
  async run(context, [request]) {
    const limited = context.state.limited;
    if (limited === undefined) return { skip: 'limit.caller-exhausted got no 429' };
    const value = limited.headers.get('retry-after');
    const waitMs = readRetryAfter(value, context.now());
    if (waitMs === undefined)
      return {
        skip: `the 429 had no readable Retry-After (${value === null ? 'none' : JSON.stringify(value)})`,
      };
    if (waitMs > context.options.maxWaitMs)
      return {
        skip: `Retry-After ${JSON.stringify(value)} asks for longer than --max-wait (${context.options.maxWaitMs / 1000} s)`,
      };
    await context.sleep(waitMs);
    const exchange = await context.send('exists', request!);
    return outcome(
      differencesOf(context, 'exists', exchange, 200).map(
        (line) => `after waiting Retry-After ${value} s: ${line}`,
      ),
    );
  },
};

/** Answers that reached a bucket, and so must carry its state: 2xx and 4xx but 401. */
const reachedBucket = ({ exchange }: Answered) =>
  exchange.status !== undefined &&
  exchange.status !== 401 &&
  ((exchange.status >= 200 && exchange.status < 300) ||
    (exchange.status >= 400 && exchange.status < 500));

const rateLimitFields: Check = {
  id: 'headers.rate-limit',
  title:
    'every answer that reached a bucket carries well-formed rate-limit fields (structured fields)',
  unavailable: (options) =>
    options.style === 'none' ? '--headers none: no rate-limit fields are expected' : undefined,
  plan: () => [],
  cost: () => 0,
  async run(context) {
    const style = context.options.style;
    if (style === 'none') return { skip: '--headers none' };
    const answers = context.answers.filter(reachedBucket);
    if (answers.length === 0) return { skip: 'no answer reached a bucket' };
    const differences: string[] = [];
    for (const { operation, exchange } of answers) {
      const { problems } = judgeRateLimitFields(style, (name) => exchange.headers.get(name));
      for (const problem of problems)
        differences.push(`${operation} ${exchange.status}: ${problem}`);
    }
    const unique = [...new Set(differences)];
    return outcome(
      unique.length > 8 ? [...unique.slice(0, 8), `… and ${unique.length - 8} more`] : unique,
    );
  },
};

/** The suite, in the order it runs. */
export const CHECKS: readonly Check[] = [
  authRequired,
  authInvalid,
  existsUnknown,
  existsKnown,
  existsInvalid,
  startInvalid,
  startAnswer,
  verifyWrong,
  verifyAnswer,
  callerBuckets,
  callerExhausted,
  otherCaller,
  retryAfterHonoured,
  rateLimitFields,
];
