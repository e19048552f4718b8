import { z } from 'zod';
import type { Operation } from '../config/config.js';
import { ConfigError } from '../config/config-error.js';
import { describeIssues } from '../config/config-schema.js';

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

const faultSchema = z
  .strictObject({
    operation: z.enum(['exists', 'start', 'verify']).optional(),
    status: z
      .union([z.literal(429), z.literal(500), z.literal(503)], {
        error: 'expected 429, 500 or 503',
      })
      .optional(),
    count: z.int('expected a whole number').min(1).max(1_000_000).optional(),
    retry_after: z.int('expected whole seconds').min(0).max(86_400).optional(),
    latency_ms: z.number().min(0).max(3_600_000, 'expected at most 1h').optional(),
  })
  .refine((fault) => fault.status !== undefined || fault.latency_ms !== undefined, {
    message: 'give a status (429, 500, 503), a latency_ms, or both',
  });

/** A fault spec in the dev API's form (snake_case, as `POST /__uas/faults` takes it). */
export function faultBody(spec: FaultSpec): Record<string, unknown> {
  return {
    operation: spec.operation,
    status: spec.status,
    count: spec.count,
    retry_after: spec.retryAfter,
    latency_ms: spec.latencyMs,
  };
}

/** The faults scripted on an emulator, applied in the order they were added. */
export interface FaultQueue {
  /** Adds a fault given in the dev API's form ({@link faultBody}); throws a ConfigError naming the bad field. */
  add(body: unknown): Fault;
  /** Takes the first fault that applies to a call of `operation`, or undefined. */
  take(operation: Operation): Fault | undefined;
  list(): Fault[];
  clear(): void;
}

/** Creates an empty fault queue. */
export function createFaultQueue(): FaultQueue {
  let faults: Fault[] = [];
  let nextId = 1;
  return {
    add(body) {
      const parsed = faultSchema.safeParse(body);
      if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, faultSchema));
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
