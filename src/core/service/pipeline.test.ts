import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG, DEMO_MERCHANT, DEMO_TOKEN } from '../../demo-config.js';
import { resolveConfig } from '../config/config.js';
import type { OtpCode } from '../signin/otp-codes.js';
import { createMemoryStore } from '../store/memory-store.js';
import { createSeededRandom } from '../time/random.js';
import { createState } from './emulator-state.js';
import type { EmulatorRequest } from './exchange.js';
import { runServiceRequest, serviceContext, type PipelineContext } from './pipeline.js';
import { faultBody } from './faults.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const AUTH = { authorization: `Bearer ${DEMO_TOKEN}` };
const START_PATH = `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`;

/** The pipeline over a fresh state on the memory store, and the codes it issued. */
function pipelineOver(overrides: Record<string, unknown> = {}) {
  const config = resolveConfig({ ...DEMO_CONFIG, ...overrides });
  const codes: OtpCode[] = [];
  const context: PipelineContext = {
    state: createState(config, createMemoryStore(config)),
    random: createSeededRandom(7),
    onCode: (code) => codes.push(code),
  };
  const service = serviceContext(context);
  /** Runs one request at `now` (synchronous on the memory store). */
  const run = (request: EmulatorRequest, now = NOW) => {
    const mark = request.url.indexOf('?');
    const path = mark === -1 ? request.url : request.url.slice(0, mark);
    const query = mark === -1 ? '' : request.url.slice(mark + 1);
    const result = runServiceRequest(context, service, request, path, query, now);
    if (result instanceof Promise) throw new Error('the memory store answers at once');
    return result;
  };
  return { context, codes, run };
}

const exists = (query: string, headers: EmulatorRequest['headers'] = AUTH): EmulatorRequest => ({
  method: 'GET',
  url: `/v1/users/exists?${query}`,
  headers,
});

const start = (body: string): EmulatorRequest => ({
  method: 'POST',
  url: START_PATH,
  headers: { ...AUTH, 'content-type': 'application/json' },
  body,
});

describe('the service pipeline', () => {
  it('answers a path no operation has 404, and records it as unrouted', () => {
    const { run } = pipelineOver();
    const { response, record } = run({ method: 'GET', url: '/v1/nothing', headers: AUTH });
    expect(response.status).toBe(404);
    expect(record).toMatchObject({ outcome: 'unrouted', status: 404, problem: 'not-found' });
    expect(record.operation).toBeUndefined();
  });

  it('answers a method the path does not take 405, with Allow', () => {
    const { run } = pipelineOver();
    const { response, record } = run({ method: 'DELETE', url: START_PATH, headers: AUTH });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect(record.outcome).toBe('unrouted');
  });

  it('refuses a call without a known token 401 before reading its input, and charges no bucket', () => {
    const { run } = pipelineOver();
    const { response, record } = run(exists('email=alice%40example.com', {}));
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(record).toMatchObject({ outcome: 'unauthenticated', operation: 'exists' });
    expect(record.client_id).toBeUndefined();
    expect(run(exists('email=alice%40example.com')).record.remaining).toBe(19);
  });

  it('runs an authenticated call against its bucket and records what it sent and got', () => {
    const { run } = pipelineOver();
    const { response, record } = run(exists('email=alice%40example.com&caller_id=203.0.113.7'));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ exists: true, token_count: 2 });
    expect(record).toMatchObject({
      // Numbered when it is journaled, which the pipeline does not do.
      id: 0,
      at: NOW,
      operation: 'exists',
      client_id: 'demo',
      email: 'alice@example.com',
      caller_id: '203.0.113.7',
      caller_id_source: 'query',
      bucket: 'caller:demo:203.0.113.7',
      level: 'caller',
      status: 200,
      outcome: 'allowed',
      remaining: 4,
    });
  });

  it('answers 429 once the bucket is empty, and records the wait it asked for', () => {
    const { run } = pipelineOver({
      limits: { client: { burst: 1, rate: '1/h' }, caller: { burst: 1, rate: '1/h' } },
    });
    expect(run(exists('email=alice%40example.com')).response.status).toBe(200);
    const { response, record } = run(exists('email=alice%40example.com'));
    expect(response.status).toBe(429);
    expect(record).toMatchObject({
      outcome: 'rate-limited',
      problem: 'quota-exceeded',
      retry_after: 3600,
      remaining: 0,
    });
  });

  it('refuses invalid input 400 after the bucket, naming the field, and records its problem', () => {
    const { run } = pipelineOver();
    const { response, record } = run(start('{"email":"not an address"}'));
    expect(response.status).toBe(400);
    expect(record).toMatchObject({ outcome: 'invalid', problem: 'invalid-request' });
    expect(record.email).toBe('not an address');
  });

  it('applies a scripted fault instead of the call, with its latency, and uses it up', () => {
    const { run, context, codes } = pipelineOver();
    context.state.faults.add(faultBody({ operation: 'start', status: 503, latencyMs: 250 }));
    const faulted = run(start('{"email":"alice@example.com"}'));
    expect(faulted.response.status).toBe(503);
    expect(faulted.response.delayMs).toBe(250);
    expect(faulted.record.outcome).toBe('injected-fault');
    expect(codes).toEqual([]);
    const next = run(start('{"email":"alice@example.com"}'));
    expect(next.response.status).toBe(200);
    expect(codes).toHaveLength(1);
    expect(context.state.faults.list()).toEqual([]);
  });

  it('keeps texts of the request in its record at most 256 characters, the method too', () => {
    const { run } = pipelineOver();
    const method = 'X'.repeat(300);
    const { record } = run({ method, url: `/v1/${'p'.repeat(300)}`, headers: AUTH });
    expect(record.method).toHaveLength(256);
    expect(record.path).toHaveLength(256);
    expect(record.method.endsWith('…')).toBe(true);
  });
});
