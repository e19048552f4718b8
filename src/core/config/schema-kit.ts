import * as z from 'zod/mini';
import { redactUrlPassword } from './url-password.js';
import { missingUnit, parseDuration } from './duration.js';

/** `got "value"`: how every config message ends. */
export const got = (input: unknown) =>
  `got ${typeof input === 'number' && !Number.isFinite(input) ? String(input) : JSON.stringify(withoutPassword(input))}`;

/**
 * A value as an error may show it: a URL without its password (`"store": "redis://:pw@host"`,
 * a URL where an object belongs, is said back with `:***`); anything else as it is.
 */
export function withoutPassword<T>(value: T): T | string {
  return typeof value === 'string' && /^[a-z][a-z0-9+.-]*:\/\//i.test(value)
    ? redactUrlPassword(value)
    : value;
}

/**
 * A schema with one check that names the problem, or says nothing: every custom rule of the
 * config is written so (zod/mini, so that the browser bundle of the handlers stays small).
 */
export function checked<T extends z.ZodMiniType>(
  schema: T,
  problem: (value: z.infer<T>) => string | undefined,
): T {
  return schema.check(
    z.check<z.infer<T>>((context) => {
      const message = problem(context.value);
      if (message !== undefined)
        context.issues.push({ code: 'custom', message, input: context.value });
    }),
  ) as T;
}

/** A duration (text such as "2s"; a number only when 0) from 0 to `maxMs`. */
export function durationText(maxMs: number, maxText: string) {
  const expected = (input: unknown) =>
    `expected a duration such as "500ms", "2s" or "10m"; ${got(input)}`;
  const either = z.union([z.number(), z.string()], { error: (issue) => expected(issue.input) });
  return checked(either, (input) => {
    const unit = missingUnit(input);
    if (unit !== undefined) return `${unit}; ${got(input)}`;
    const value = parseDuration(input);
    return value === undefined
      ? expected(input)
      : value > maxMs
        ? `expected at most ${maxText}; ${got(input)}`
        : undefined;
  });
}

/**
 * A whole number from `min` to `max`, with one message that says which; `unit` ("seconds",
 * "milliseconds"), for a number that is a time, is named in every message, a wrong type's too.
 */
export const whole = (min: number, max: number, unit?: string) => {
  const what = unit === undefined ? 'a whole number' : `a whole number of ${unit}`;
  const type =
    unit === undefined
      ? z.number({ error: (issue) => `expected a number; ${got(issue.input)}` })
      : z.custom<number>((value) => typeof value === 'number', {
          error: (issue) => `expected ${what}; ${got(issue.input)}`,
        });
  return checked(type, (value) =>
    !Number.isInteger(value) || value < min || value > max
      ? `expected ${what} from ${min} to ${max}; ${got(value)}`
      : undefined,
  );
};

/** Text that fits `pattern`, at most `max` characters long. */
export const text = (pattern: RegExp, message: string, max = 10_000) =>
  checked(z.string(), (value) =>
    value.length > max
      ? `expected at most ${max} characters`
      : pattern.test(value)
        ? undefined
        : message,
  );

/** An array of at least `min` and at most `max` items. */
export const list = <T extends z.ZodMiniType>(item: T, min: number, max: number, what: string) =>
  checked(z.array(item), (items) =>
    items.length < min || items.length > max
      ? `expected ${min} to ${max} ${what}; got ${items.length}`
      : undefined,
  );
