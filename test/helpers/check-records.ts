import type { Operation } from '../../src/core/config/config.js';
import type { MisplacedCallerId, RequestRecord } from '../../src/core/records/records.js';
import { fingerprint } from '../../src/core/service/request-facts.js';
import { DEMO_MERCHANT } from '../../src/demo-config.js';
import type { CheckReport, Finding, RuleId, RuleResult } from '../../src/check/check-report.js';
import { createSeededRandom } from '../../src/core/time/random.js';
import { requestRecord } from './request-record.js';

/** What a test says about one request; everything else follows as the emulator would fill it. */
export interface RecordSpec {
  /** Milliseconds from the start of the test. */
  at: number;
  operation?: Operation;
  email?: string;
  phone?: string;
  /** The one-time code of a verify (part of the fingerprint, never of the fields). */
  code?: string;
  callerId?: string;
  clientId?: string;
  status?: number;
  /** Retry-After of a 429, in seconds. @default 1 */
  retryAfter?: number | undefined;
  misplaced?: MisplacedCallerId[];
  /** A 429 injected (chaos, a scripted fault) rather than one of an empty bucket. */
  injected?: boolean;
  /** Whole tokens left in the bucket after the request. */
  remaining?: number;
  /** The `Idempotency-Key` header sent. */
  idempotencyKey?: string;
  /** The `Retry-Attempt` header sent. */
  retryAttempt?: string;
}

/** A fixed start, so `at` in the specs stays small. */
export const T0 = Date.UTC(2026, 0, 1);

/**
 * Returns a maker of request records with increasing ids, filled as the emulator's pipeline
 * fills them: path, fields, fingerprint (the code included, the caller_id not), bucket, outcome,
 * Retry-After and problem of a 429.
 */
export function recordMaker(): (spec: RecordSpec) => RequestRecord {
  let nextId = 1;
  return (spec) => {
    const operation = spec.operation ?? 'exists';
    const clientId = spec.clientId ?? 'demo';
    const status = spec.status ?? 200;
    const method = operation === 'exists' ? 'GET' : 'POST';
    const path =
      operation === 'exists'
        ? '/v1/users/exists'
        : `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/${operation}`;
    const fields: Record<string, unknown> = {};
    if (spec.email !== undefined) fields.email = spec.email;
    if (spec.phone !== undefined) fields.phone_number = spec.phone;
    if (spec.callerId !== undefined) fields.caller_id = spec.callerId;
    const hashed = spec.code === undefined ? fields : { ...fields, verification_code: spec.code };
    const limited = status === 429;
    return requestRecord({
      id: nextId++,
      at: T0 + spec.at,
      method,
      path,
      operation,
      client_id: clientId,
      merchant_id: operation === 'exists' ? undefined : DEMO_MERCHANT,
      email: spec.email,
      phone_number: spec.phone,
      caller_id: spec.callerId,
      caller_id_source:
        spec.callerId === undefined ? undefined : operation === 'exists' ? 'query' : 'body',
      caller_id_misplaced: spec.misplaced ?? [],
      fields,
      fingerprint: fingerprint(method, path, hashed),
      bucket:
        spec.callerId === undefined ? `client:${clientId}` : `caller:${clientId}:${spec.callerId}`,
      level: spec.callerId === undefined ? 'client' : 'caller',
      status,
      outcome: limited
        ? spec.injected === true
          ? 'injected-429'
          : 'rate-limited'
        : status >= 400
          ? 'invalid'
          : 'allowed',
      remaining: spec.remaining,
      idempotency_key: spec.idempotencyKey,
      retry_attempt: spec.retryAttempt,
      retry_after: limited ? ('retryAfter' in spec ? spec.retryAfter : 1) : undefined,
      problem: limited ? 'quota-exceeded' : status >= 400 ? 'invalid-request' : undefined,
    });
  };
}

/** A 401: refused before anything of the request was read, as the pipeline records it. */
export function unauthenticatedRecord(id: number, at: number): RequestRecord {
  return requestRecord({
    id,
    at: T0 + at,
    client_id: undefined,
    status: 401,
    outcome: 'unauthenticated',
    problem: 'unauthorized',
    fingerprint: fingerprint('GET', '/v1/users/exists', undefined),
  });
}

/** The verdict on one rule in a report. */
export function ruleOf(report: CheckReport, rule: RuleId): RuleResult {
  const found = report.rules.find((entry) => entry.rule === rule);
  if (found === undefined) throw new Error(`the report lists no rule ${rule}`);
  return found;
}

/** The finding of one rule, or undefined. */
export function findingOf(report: CheckReport, rule: RuleId): Finding | undefined {
  return report.findings.find((entry) => entry.rule === rule);
}

/** Options of {@link politeShoppers}. */
export interface PoliteShoppersOptions {
  shoppers?: number;
  /** Chance that an attempt is answered 429 (Retry-After 1 s). */
  refusals?: number;
  seed?: number;
  /** Shoppers per public address (2: pairs behind one NAT). */
  perAddress?: number;
}

/**
 * Records of a correct integration: every shopper signs in (exists, start, a wrong code, the
 * right code) with a caller_id of their public address, and answers each 429 the way uas's
 * client does (Retry-After plus full jitter of an exponential backoff, at most 3 attempts).
 */
export function politeShoppers(options: PoliteShoppersOptions = {}): RequestRecord[] {
  const { shoppers = 12, refusals = 0.3, seed = 7, perAddress = 1 } = options;
  const make = recordMaker();
  const random = createSeededRandom(seed);
  const records: RequestRecord[] = [];
  for (let shopper = 0; shopper < shoppers; shopper++) {
    const email = `shopper${shopper}@example.com`;
    const callerId = `203.0.113.${Math.floor(shopper / perAddress) + 1}`;
    let at = shopper * 700;
    const steps: Omit<RecordSpec, 'at'>[] = [
      { operation: 'exists', email, callerId },
      { operation: 'start', email, callerId },
      { operation: 'verify', email, callerId, code: '000000' },
      { operation: 'verify', email, callerId, code: '123456' },
    ];
    for (const [index, step] of steps.entries()) {
      for (let attempt = 1; attempt <= 3; attempt++) {
        const refused = random.next() < refusals;
        const status = refused ? 429 : index === 2 ? 422 : 200;
        records.push(make({ ...step, at, status }));
        if (!refused || attempt === 3) break;
        at += 1000 + random.next() * Math.min(8000, 500 * 2 ** (attempt - 1));
      }
      at += 2000 + random.next() * 3000;
    }
  }
  return records;
}

/** A caller_id meant to break a report: terminal escapes, XML, Markdown and table markup. */
export const HOSTILE_CALLER_ID =
  '\u001b]0;pwned\u0007<b>&"x"</b> ![img](http://evil.test/t.png) `tick` | cell';

/**
 * Records with two errors (caller-id-missing; caller-id-shared, whose value is
 * {@link HOSTILE_CALLER_ID}) and one warning (caller-id-internal-ip).
 */
export function hostileRecords(): RequestRecord[] {
  const make = recordMaker();
  return [
    make({ at: 0, email: 'victim@example.com' }),
    make({ at: 10, email: 'a@example.com', callerId: '127.0.0.1' }),
    ...[0, 1, 2, 3].map((user) =>
      make({ at: 20 + user, email: `u${user}@example.com`, callerId: HOSTILE_CALLER_ID }),
    ),
  ];
}
