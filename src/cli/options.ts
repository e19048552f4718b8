import { InvalidArgumentError } from 'commander';
import { CliError } from './io.js';

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

/**
 * Parses an http(s) URL given to `flag`; a CliError (usage) names the flag otherwise.
 */
export function parseHttpUrl(flag: string, text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(
      `invalid ${flag}: expected an http(s) URL such as http://127.0.0.1:4010; got ${JSON.stringify(text)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(
      `invalid ${flag}: expected http or https; got ${JSON.stringify(url.protocol)}`,
    );
  }
  return url;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\]|::ffff:127\.\d+\.\d+\.\d+)$/i;

/** Whether a host name or address (as in a URL or `--host`) is this machine's loopback. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host);
}

/** Commander parser for per-operation costs: `start=2,verify=1`. */
export function operationCosts(text: string): Record<string, number> {
  const costs: Record<string, number> = {};
  for (const part of text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')) {
    const match = /^(exists|start|verify)=(\d+)$/.exec(part);
    if (!match || Number(match[2]) < 1) {
      throw new InvalidArgumentError(
        `expected operation=tokens pairs such as "start=2,verify=1" (operations: exists, start, verify); got ${JSON.stringify(part)}`,
      );
    }
    costs[match[1] as string] = Number(match[2]);
  }
  if (Object.keys(costs).length === 0)
    throw new InvalidArgumentError(
      'expected at least one operation=tokens pair, such as "start=2"',
    );
  return costs;
}

/** Commander parser for a comma-separated list of host names (`--allowed-hosts`). */
export function hostList(text: string): string[] {
  const names = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const name of names) {
    if (name !== '*' && !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i.test(name))
      throw new InvalidArgumentError(
        `expected host names such as "uas.internal,10.0.0.5" or "*"; got ${JSON.stringify(name)}`,
      );
  }
  if (names.length === 0) throw new InvalidArgumentError('expected at least one host name');
  return names;
}

/** Commander parser for `--journal-size`: a whole number, or `unbounded`. */
export function journalSize(text: string): number | 'unbounded' {
  if (text === 'unbounded') return text;
  return integerIn(1, 1_000_000)(text);
}

/** Commander parser for an ISO 8601 time (`2026-01-01T00:00:00Z`); returns ms since the epoch. */
export function isoTime(text: string): number {
  const value = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text.trim())
    ? Date.parse(text)
    : NaN;
  if (!Number.isFinite(value))
    throw new InvalidArgumentError(
      `expected an ISO 8601 time such as 2026-01-01T00:00:00Z; got ${JSON.stringify(text)}`,
    );
  return value;
}
