import { got } from './schema-kit.js';

/**
 * Whether `value` (an object, a class instance, or a function with methods) has each of `names`
 * as a function: what a clock or a random source given from JavaScript must have.
 */
export function hasMethods(value: unknown, names: readonly string[]): boolean {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function')
  );
}

/**
 * A value as a refusal shows it after `got`: `a function`, or as config messages quote it (a
 * value JSON cannot write, such as a circular object, by its kind).
 */
export function shownValue(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  try {
    return got(value).replace(/^got /, '');
  } catch {
    return Object.prototype.toString.call(value);
  }
}
