import { DevApiError } from './dev-api-error.js';
import type { AnswerReader } from './answer-reader.js';
import { routeTarget } from './route-target.js';

/** What `GET /__uas/health` says. */
export interface Health {
  status: 'ok';
  version: string;
  started_at: string;
  uptime_ms: number;
}

/**
 * Whether `value` is what the health route of a uas dev API answers: an object with status "ok",
 * and version, started_at and uptime_ms of their types. Those three may be missing (a stand-in dev
 * API of a test may answer `{"status":"ok"}` alone), never of another type.
 */
function isHealth(value: unknown): value is Health {
  if (typeof value !== 'object' || value === null) return false;
  const health = value as Partial<Record<keyof Health, unknown>>;
  const absentOr = (field: unknown, fits: (field: unknown) => boolean) =>
    field === undefined || fits(field);
  return (
    health.status === 'ok' &&
    absentOr(health.version, (version) => typeof version === 'string') &&
    absentOr(
      health.started_at,
      (startedAt) => typeof startedAt === 'string' && !Number.isNaN(Date.parse(startedAt)),
    ) &&
    absentOr(health.uptime_ms, (uptime) => typeof uptime === 'number' && Number.isFinite(uptime))
  );
}

/**
 * The emulator's version and uptime; a server that answers anything else (another JSON, a page)
 * is a {@link DevApiError} (`unavailable`) saying it is not a uas dev API.
 */
export async function readHealth({ call, text }: AnswerReader): Promise<Health> {
  const { method, path } = routeTarget('health');
  const where = `${method} /__uas${path}`;
  const answer = (await call(method, path))!;
  const body = await text(answer, where);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw DevApiError.notDevApi(where, answer.status, 'its answer is not JSON', body);
  }
  if (!isHealth(value))
    throw DevApiError.notDevApi(
      where,
      answer.status,
      'its answer is not { status: "ok", version, started_at, uptime_ms }',
      body,
    );
  return value;
}
