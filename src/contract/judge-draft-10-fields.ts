import { parseList, type BareItem, type Item } from 'structured-headers';
import type { RateLimitJudgement, RateLimitReading } from './rate-limit-judgement.js';
import {
  describeItem,
  isWhole,
  itemName,
  itemParameter,
  type FieldReader,
} from './structured-field-reader.js';

type Member = Item | [Item[], Map<string, BareItem>];

/** The quota of each policy of `RateLimit-Policy`; each malformed policy is a problem. */
function readQuotas(
  reader: FieldReader,
  policies: Member[] | undefined,
  policyText: string | undefined,
): Map<string, number> {
  const { problems } = reader;
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
        `RateLimit-Policy ${JSON.stringify(policyText)}: policy ${JSON.stringify(name)} has no quota q above zero (got ${describeItem(q)})`,
      );
    else quotas.set(name, q);
    if (w !== undefined && (!isWhole(w) || w === 0))
      problems.push(
        `RateLimit-Policy ${JSON.stringify(policyText)}: w must be a whole number of seconds above zero (got ${describeItem(w)})`,
      );
  }
  return quotas;
}

/** What one member of `RateLimit` says, judged against the quotas; undefined when it cannot say. */
function readState(
  reader: FieldReader,
  member: Member,
  texts: { state: string | undefined; policy: string | undefined },
  quotas: Map<string, number> | undefined,
): RateLimitReading | undefined {
  const { problems } = reader;
  const name = itemName(member);
  const r = itemParameter(member, 'r');
  const t = itemParameter(member, 't');
  if (name === undefined) {
    problems.push(
      `RateLimit ${JSON.stringify(texts.state)}: a member is not named by a string or token`,
    );
    return undefined;
  }
  if (!isWhole(r))
    problems.push(
      `RateLimit ${JSON.stringify(texts.state)}: r must be a whole number (got ${describeItem(r)})`,
    );
  if (t !== undefined && !isWhole(t))
    problems.push(
      `RateLimit ${JSON.stringify(texts.state)}: t must be a whole number of seconds (got ${describeItem(t)})`,
    );
  const quota = quotas?.get(name);
  if (quotas !== undefined && quota === undefined && problems.length === 0)
    problems.push(
      `RateLimit names policy ${JSON.stringify(name)}, which RateLimit-Policy ${JSON.stringify(texts.policy)} does not define`,
    );
  if (isWhole(r) && quota !== undefined && r > quota)
    problems.push(`RateLimit says r=${r} left of a quota of q=${quota}`);
  return isWhole(r) ? { policy: name, remaining: r, limit: quota } : undefined;
}

/**
 * The draft-10 fields: `RateLimit` and `RateLimit-Policy`, Lists of named members; every member
 * of `RateLimit` names a policy of `RateLimit-Policy` and has no more left than its quota.
 */
export function judgeDraft10Fields(reader: FieldReader): RateLimitJudgement {
  const { problems } = reader;
  const stateText = reader.read('RateLimit');
  const policyText = reader.read('RateLimit-Policy');
  const states =
    stateText === undefined ? undefined : reader.parse('RateLimit', stateText, 'List', parseList);
  const policies =
    policyText === undefined
      ? undefined
      : reader.parse('RateLimit-Policy', policyText, 'List', parseList);
  const quotas = readQuotas(reader, policies, policyText);
  let reading: RateLimitReading | undefined;
  for (const member of states ?? []) {
    const said = readState(
      reader,
      member,
      { state: stateText, policy: policyText },
      policies === undefined ? undefined : quotas,
    );
    reading ??= said;
  }
  if (states !== undefined && states.length === 0) problems.push('RateLimit is empty');
  return { reading: problems.length === 0 ? reading : undefined, problems };
}
