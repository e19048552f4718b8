import { describe, expectTypeOf, it } from 'vitest';
import type { Problem } from '../core/service/problems.js';
import type { ExistsAnswer } from './answers.js';
import type { CallResult } from './call-result.js';

// These assertions are checked by `tsc --noEmit` (npm test's typecheck step): a wrong type, or a
// `@ts-expect-error` line that no longer errs, fails it. At run time expectTypeOf does nothing.
const result = {
  outcome: 'network-error',
  ok: false,
  status: undefined,
  headers: undefined,
  text: '',
  rateLimit: undefined,
  retryAfter: undefined,
  data: undefined,
  problem: undefined,
  error: 'ECONNREFUSED',
  location: undefined,
  attempts: [],
  gaveUp: 'max-attempts',
  request: { method: 'GET', url: 'http://127.0.0.1:9/', headers: {}, body: undefined },
} as CallResult<ExistsAnswer>;

describe('CallResult', () => {
  it('narrows data to the answer when ok is true', () => {
    if (result.ok) {
      expectTypeOf(result.outcome).toEqualTypeOf<'success'>();
      expectTypeOf(result.data).toEqualTypeOf<ExistsAnswer>();
      expectTypeOf(result.status).toEqualTypeOf<number>();
      expectTypeOf(result.problem).toEqualTypeOf<undefined>();
    } else {
      expectTypeOf(result.data).toEqualTypeOf<undefined>();
    }
  });

  it('has a status and a problem on http-error and rate-limited, and the Location of a 3xx', () => {
    if (result.outcome === 'http-error') {
      expectTypeOf(result.status).toEqualTypeOf<number>();
      expectTypeOf(result.problem).toEqualTypeOf<Problem | undefined>();
      expectTypeOf(result.location).toEqualTypeOf<string | undefined>();
      expectTypeOf(result.headers).toEqualTypeOf<Headers>();
    }
    if (result.outcome === 'rate-limited') {
      expectTypeOf(result.status).toEqualTypeOf<429>();
      expectTypeOf(result.problem).toEqualTypeOf<Problem | undefined>();
    }
  });

  it('has an error and a status but no data on invalid-answer', () => {
    if (result.outcome === 'invalid-answer') {
      expectTypeOf(result.status).toEqualTypeOf<number>();
      expectTypeOf(result.error).toEqualTypeOf<string>();
      expectTypeOf(result.data).toEqualTypeOf<undefined>();
    }
  });

  it('has no status, headers or body on network-error', () => {
    if (result.outcome === 'network-error') {
      expectTypeOf(result.status).toEqualTypeOf<undefined>();
      expectTypeOf(result.headers).toEqualTypeOf<undefined>();
      expectTypeOf(result.error).toEqualTypeOf<string>();
      expectTypeOf(result.ok).toEqualTypeOf<false>();
    }
  });

  it('refuses what the narrowing does not allow', () => {
    // @ts-expect-error: data may be undefined until ok is checked
    const early: ExistsAnswer = result.data;
    // @ts-expect-error: a network error has no status
    const status: number = result.status;
    if (result.outcome === 'network-error') {
      // @ts-expect-error: 'success' is not possible here
      if (result.ok === true) return;
    }
    if (result.ok) {
      const exists: boolean = result.data.exists;
      expectTypeOf(exists).toEqualTypeOf<boolean>();
      // @ts-expect-error: a success has no problem to read
      const detail: string = result.problem.detail;
      void detail;
    }
    void [early, status];
  });

  it('lists exactly five outcomes', () => {
    expectTypeOf<CallResult<unknown>['outcome']>().toEqualTypeOf<
      'success' | 'http-error' | 'rate-limited' | 'invalid-answer' | 'network-error'
    >();
  });
});
