import * as z from 'zod/mini';
import type { Operation } from '../config/config.js';
import {
  ConfigError,
  configIssue,
  isConfigError,
  type ConfigIssue,
} from '../config/config-error.js';
import { describeIssues } from '../config/config-schema.js';
import { checked, whole } from '../config/schema-kit.js';

/** A fault to script: what the next calls get instead of their answer. */
export interface FaultSpec {
  /** Only calls of this operation; any operation when absent. */
  operation?: Operation | undefined;
  /**
   * The status they get: 429 (as if the bucket were empty, without charging it), 500 or 503.
   * Absent: the normal answer, after `latencyMs`.
   */
  status?: 429 | 500 | 503 | undefined;
  /**
   * How many calls it applies to.
   * @default 1
   */
  count?: number | undefined;
  /** The Retry-After sent with a 429 or 503, in seconds. @default 1 for a 429, none for a 503 */
  retryAfter?: number | undefined;
  /** Milliseconds the answer waits (on the emulator's clock: a manual clock must be moved). */
  latencyMs?: number | undefined;
}

/** A scripted fault, as listed by `faults()` and `GET /__uas/faults`. */
export interface Fault {
  id: number;
  /** null: any operation. */
  operation: Operation | null;
  /** null: the normal answer, after `latency_ms`. */
  status: 429 | 500 | 503 | null;
  /** Calls it still applies to. */
  remaining: number;
  retry_after: number | null;
  latency_ms: number | null;
}

const faultSchema = checked(
  z.strictObject({
    operation: z.optional(z.enum(['exists', 'start', 'verify'])),
    status: z.optional(
      z.union([z.literal(429), z.literal(500), z.literal(503)], {
        error: 'expected 429, 500 or 503',
      }),
    ),
    count: z.optional(whole(1, 1_000_000)),
    retry_after: z.optional(whole(0, 86_400, 'seconds')),
    latency_ms: z.optional(whole(0, 3_600_000, 'milliseconds')),
  }),
  (fault) =>
    fault.status === undefined && fault.latency_ms === undefined
      ? 'give a status (429, 500, 503), a latency_ms, or both'
      : undefined,
);

/** The fields of a {@link FaultSpec}, and their names in the dev API's form. */
const SPEC_FIELDS: Record<string, string> = {
  operation: 'operation',
  status: 'status',
  count: 'count',
  retryAfter: 'retry_after',
  latencyMs: 'latency_ms',
};

/**
 * A fault spec in the dev API's form (snake_case, as `POST /__uas/faults` takes it). A field the
 * spec does not have (a typo, in JavaScript) is kept, so that the fault is refused naming it; one
 * spelt as the dev API spells it (`retry_after`) is refused here, naming the spelling the spec
 * takes, as the spec's own field would overwrite it and its value be lost without a word.
 */
export function faultBody(spec: FaultSpec): Record<string, unknown> {
  if (typeof spec !== 'object' || spec === null)
    throw new TypeError(
      `failNext takes a fault, such as { operation: 'start', status: 503 }; got ${String(spec)}`,
    );
  const unknown = Object.fromEntries(
    Object.entries(spec).filter(([key]) => !Object.hasOwn(SPEC_FIELDS, key)),
  );
  const misspelt = Object.entries(SPEC_FIELDS).filter(
    ([field, name]) => field !== name && Object.hasOwn(unknown, name),
  );
  if (misspelt.length > 0)
    throw new ConfigError(
      misspelt.map(([field, name]) =>
        configIssue([name], `unknown field; in JavaScript it is ${field}`),
      ),
      'invalid fault',
    );
  return {
    ...unknown,
    operation: spec.operation,
    status: spec.status,
    count: spec.count,
    retry_after: spec.retryAfter,
    latency_ms: spec.latencyMs,
  };
}

/**
 * Adds a fault given as a {@link FaultSpec} (as `failNext` takes it), refused in the spec's terms:
 * `latencyMs`, not the dev API's `latency_ms`, and an invalid fault, not an invalid config.
 */
export function addFaultSpec(queue: FaultQueue, spec: FaultSpec): Fault {
  const body = faultBody(spec);
  try {
    return queue.add(body);
  } catch (error) {
    if (!isConfigError(error)) throw error;
    throw new ConfigError(error.issues.map(inSpecTerms), 'invalid fault');
  }
}

/** An issue of a fault body, its dev-API field names written as the spec's. */
function inSpecTerms(issue: ConfigIssue): ConfigIssue {
  const rename = (text: string) =>
    Object.entries(SPEC_FIELDS).reduce(
      (renamed, [field, name]) => renamed.replace(new RegExp(`\\b${name}\\b`, 'g'), field),
      text,
    );
  return {
    path: rename(issue.path),
    pointer: rename(issue.pointer),
    message: rename(issue.message),
  };
}

/**
 * A fault in the dev API's form read as a spec: throws a ConfigError naming each field that is
 * unknown (with the closest known one) or does not fit, as `POST /__uas/faults` answers.
 */
export function readFaultBody(body: unknown): FaultSpec {
  const parsed = faultSchema.safeParse(body, { reportInput: true });
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, faultSchema));
  const { operation, status, count, retry_after, latency_ms } = parsed.data;
  return { operation, status, count, retryAfter: retry_after, latencyMs: latency_ms };
}

/** The most faults scripted at once: one more is refused. */
export const FAULTS_MAX = 1_000_000;

/** The faults scripted on an emulator, applied in the order they were added. */
export interface FaultQueue {
  /** Adds a fault given in the dev API's form ({@link faultBody}); throws a ConfigError naming the bad field. */
  add(body: unknown): Fault;
  /** Takes the first fault that applies to a call of `operation`, or undefined. */
  take(operation: Operation): Fault | undefined;
  list(): Fault[];
  clear(): void;
}

/** Creates an empty fault queue that holds at most `max` faults at once. */
export function createFaultQueue(max = FAULTS_MAX): FaultQueue {
  let faults: Fault[] = [];
  let nextId = 1;
  return {
    add(body) {
      const parsed = faultSchema.safeParse(body, { reportInput: true });
      if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, faultSchema));
      if (faults.length >= max)
        throw new ConfigError([
          configIssue([], `${max} faults are scripted already; clear them or let them apply`),
        ]);
      const { operation, status, count = 1, retry_after, latency_ms } = parsed.data;
      const fault: Fault = {
        id: nextId++,
        operation: operation ?? null,
        status: status ?? null,
        remaining: count,
        retry_after: retry_after ?? (status === 429 ? 1 : null),
        latency_ms: latency_ms ?? null,
      };
      faults.push(fault);
      return { ...fault };
    },
    take(operation) {
      if (faults.length === 0) return undefined;
      const fault = faults.find(
        (entry) => entry.operation === null || entry.operation === operation,
      );
      if (fault === undefined) return undefined;
      fault.remaining--;
      if (fault.remaining === 0) faults = faults.filter((entry) => entry !== fault);
      return fault;
    },
    list: () => faults.map((fault) => ({ ...fault })),
    clear() {
      faults = [];
    },
  };
}
