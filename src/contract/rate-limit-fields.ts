import {
  parseDictionary,
  parseItem,
  parseList,
  Token,
  type BareItem,
  type Item,
} from 'structured-headers';
import type { HeaderStyle } from '../core/config/config-schema.js';

/** What the rate-limit fields of an answer say about its bucket. */
export interface RateLimitReading {
  /** The policy named by draft-10 fields (`caller`, `client`); undefined in the other styles. */
  policy: string | undefined;
  /** Whole requests left. */
  remaining: number;
  /** Requests the bucket holds when full, when the fields say. */
  limit: number | undefined;
}

/** The rate-limit fields of an answer judged: what they say, and each way they are malformed. */
export interface RateLimitJudgement {
  reading: RateLimitReading | undefined;
  problems: string[];
}

const isWhole = (value: BareItem | undefined): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

const nameOf = (value: BareItem): string | undefined =>
  typeof value === 'string' ? value : value instanceof Token ? value.toString() : undefined;

/**
 * Judges the rate-limit fields of an answer in `style` strictly: present, parseable as the
 * Structured Fields (RFC 9651) the style uses (with `structured-headers`), every number a whole
 * one, and consistent (a draft-10 `RateLimit` names a policy of `RateLimit-Policy`, and has no
 * more left than that policy's quota).
 */
export function judgeRateLimitFields(
  style: Exclude<HeaderStyle, 'none'>,
  get: (name: string) => string | null | undefined,
): RateLimitJudgement {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = get(name) ?? undefined;
    if (value === undefined) problems.push(`${name} is missing`);
    return value;
  };
  const parse = <T>(name: string, value: string, kind: string, parser: (text: string) => T) => {
    try {
      return parser(value);
    } catch (error) {
      problems.push(
        `${name} ${JSON.stringify(value)} is not a Structured Field ${kind}: ${(error as Error).message}`,
      );
      return undefined;
    }
  };
  switch (style) {
    case 'draft-10': {
      const stateText = read('RateLimit');
      const policyText = read('RateLimit-Policy');
      const states =
        stateText === undefined ? undefined : parse('RateLimit', stateText, 'List', parseList);
      const policies =
        policyText === undefined
          ? undefined
          : parse('RateLimit-Policy', policyText, 'List', parseList);
      const quotas = new Map<string, number>();
      for (const member of policies ?? []) {
        const name = itemName(member);
        const q = itemParameter(member, 'q');
        const w = itemParameter(member, 'w');
        if (name === undefined)
          problems.push(
            `RateLimit-Policy ${JSON.stringify(policyText)}: a policy is not named by a string or token`,
          );
        else if (!isWhole(q) || q === 0)
          problems.push(
            `RateLimit-Policy ${JSON.stringify(policyText)}: policy ${JSON.stringify(name)} has no quota q above zero (got ${describe(q)})`,
          );
        else quotas.set(name, q);
        if (w !== undefined && (!isWhole(w) || w === 0))
          problems.push(
            `RateLimit-Policy ${JSON.stringify(policyText)}: w must be a whole number of seconds above zero (got ${describe(w)})`,
          );
      }
      let reading: RateLimitReading | undefined;
      for (const member of states ?? []) {
        const name = itemName(member);
        const r = itemParameter(member, 'r');
        const t = itemParameter(member, 't');
        if (name === undefined) {
          problems.push(
            `RateLimit ${JSON.stringify(stateText)}: a member is not named by a string or token`,
          );
          continue;
        }
        if (!isWhole(r))
          problems.push(
            `RateLimit ${JSON.stringify(stateText)}: r must be a whole number (got ${describe(r)})`,
          );
        if (t !== undefined && !isWhole(t))
          problems.push(
            `RateLimit ${JSON.stringify(stateText)}: t must be a whole number of seconds (got ${describe(t)})`,
          );
        const quota = quotas.get(name);
        if (policies !== undefined && quota === undefined && problems.length === 0)
          problems.push(
            `RateLimit names policy ${JSON.stringify(name)}, which RateLimit-Policy ${JSON.stringify(policyText)} does not define`,
          );
        if (isWhole(r) && quota !== undefined && r > quota)
          problems.push(`RateLimit says r=${r} left of a quota of q=${quota}`);
        if (isWhole(r)) reading ??= { policy: name, remaining: r, limit: quota };
      }
      if (states !== undefined && states.length === 0) problems.push('RateLimit is empty');
      return { reading: problems.length === 0 ? reading : undefined, problems };
    }
    case 'draft-7': {
      const stateText = read('RateLimit');
      const policyText = read('RateLimit-Policy');
      const state =
        stateText === undefined
          ? undefined
          : parse('RateLimit', stateText, 'Dictionary', parseDictionary);
      const fields: Record<string, number | undefined> = {};
      for (const name of ['limit', 'remaining', 'reset']) {
        const member = state?.get(name);
        const value =
          member === undefined || Array.isArray(member[0]) ? undefined : (member[0] as BareItem);
        if (state !== undefined && !isWhole(value))
          problems.push(
            `RateLimit ${JSON.stringify(stateText)}: ${name} must be a whole number (got ${describe(value)})`,
          );
        fields[name] = isWhole(value) ? value : undefined;
      }
      if (policyText !== undefined) {
        const policy = parse('RateLimit-Policy', policyText, 'List', parseList);
        const first = policy?.[0];
        if (
          policy !== undefined &&
          (first === undefined || Array.isArray(first[0]) || !isWhole(first[0] as BareItem))
        )
          problems.push(
            `RateLimit-Policy ${JSON.stringify(policyText)}: expected a quota such as 5;w=5`,
          );
      }
      const { limit, remaining } = fields;
      if (limit !== undefined && remaining !== undefined && remaining > limit)
        problems.push(`RateLimit says remaining=${remaining} of a limit of ${limit}`);
      return {
        reading:
          problems.length === 0 && remaining !== undefined
            ? { policy: undefined, remaining, limit }
            : undefined,
        problems,
      };
    }
    case 'draft-6':
    case 'x-ratelimit': {
      const prefix = style === 'draft-6' ? 'RateLimit' : 'X-RateLimit';
      const numbers: Record<string, number | undefined> = {};
      for (const part of ['Limit', 'Remaining', 'Reset']) {
        const name = `${prefix}-${part}`;
        const value = read(name);
        if (value === undefined) continue;
        const item = parse(name, value, 'Item', parseItem);
        if (item !== undefined && !isWhole(item[0]))
          problems.push(`${name} ${JSON.stringify(value)} must be a whole number`);
        numbers[part] = item !== undefined && isWhole(item[0]) ? item[0] : undefined;
      }
      const { Limit: limit, Remaining: remaining } = numbers;
      if (limit !== undefined && remaining !== undefined && remaining > limit)
        problems.push(`${prefix}-Remaining ${remaining} is above ${prefix}-Limit ${limit}`);
      return {
        reading:
          problems.length === 0 && remaining !== undefined
            ? { policy: undefined, remaining, limit }
            : undefined,
        problems,
      };
    }
  }
}

function itemName(member: Item | [Item[], unknown]): string | undefined {
  if (Array.isArray(member[0])) return undefined;
  return nameOf(member[0] as BareItem);
}

function itemParameter(
  member: Item | [Item[], Map<string, BareItem>],
  name: string,
): BareItem | undefined {
  return (member[1] as Map<string, BareItem>).get(name);
}

function describe(value: BareItem | undefined): string {
  if (value === undefined) return 'none';
  if (value instanceof Token) return value.toString();
  return typeof value === 'object' ? String(value) : JSON.stringify(value);
}
