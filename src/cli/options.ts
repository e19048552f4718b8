import { InvalidArgumentError } from 'commander';

/** Commander parser for a whole number within bounds. */
export function integerIn(min: number, max: number) {
  return (text: string): number => {
    if (!/^-?\d+$/.test(text.trim()))
      throw new InvalidArgumentError(`expected a whole number; got ${JSON.stringify(text)}`);
    const value = Number(text);
    if (value < min || value > max)
      throw new InvalidArgumentError(`expected a number from ${min} to ${max}; got ${value}`);
    return value;
  };
}

/** Commander parser for a number within bounds (fractions allowed). */
export function numberIn(min: number, max: number) {
  return (text: string): number => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value))
      throw new InvalidArgumentError(`expected a number; got ${JSON.stringify(text)}`);
    if (value < min || value > max)
      throw new InvalidArgumentError(`expected a number from ${min} to ${max}; got ${value}`);
    return value;
  };
}

/** Commander parser that accepts one of `choices`. */
export function oneOf<T extends string>(choices: readonly T[]) {
  return (text: string): T => {
    if (!(choices as readonly string[]).includes(text))
      throw new InvalidArgumentError(
        `expected one of ${choices.join(', ')}; got ${JSON.stringify(text)}`,
      );
    return text as T;
  };
}
