import { parseDictionary, parseList, type BareItem } from 'structured-headers';
import { judgementOf, type RateLimitJudgement } from './rate-limit-judgement.js';
import { describeItem, isWhole, type FieldReader } from './structured-field-reader.js';

/** `RateLimit-Policy` of draft-7, when sent: a List whose first member is a whole quota. */
function checkPolicy(reader: FieldReader, policyText: string | undefined): void {
  if (policyText === undefined) return;
  const policy = reader.parse('RateLimit-Policy', policyText, 'List', parseList);
  const first = policy?.[0];
  if (
    policy !== undefined &&
    (first === undefined || Array.isArray(first[0]) || !isWhole(first[0] as BareItem))
  )
    reader.problems.push(
      `RateLimit-Policy ${JSON.stringify(policyText)}: expected a quota such as 5;w=5`,
    );
}

/**
 * The draft-7 fields: `RateLimit`, a Dictionary of whole `limit`, `remaining` and `reset`, and
 * `RateLimit-Policy`; no more remaining than the limit.
 */
export function judgeDraft7Fields(reader: FieldReader): RateLimitJudgement {
  const { problems } = reader;
  const stateText = reader.read('RateLimit');
  const policyText = reader.read('RateLimit-Policy');
  const state =
    stateText === undefined
      ? undefined
      : reader.parse('RateLimit', stateText, 'Dictionary', parseDictionary);
  const fields: Record<string, number | undefined> = {};
  for (const name of ['limit', 'remaining', 'reset']) {
    const member = state?.get(name);
    const value =
      member === undefined || Array.isArray(member[0]) ? undefined : (member[0] as BareItem);
    if (state !== undefined && !isWhole(value))
      problems.push(
        `RateLimit ${JSON.stringify(stateText)}: ${name} must be a whole number (got ${describeItem(value)})`,
      );
    fields[name] = isWhole(value) ? value : undefined;
  }
  checkPolicy(reader, policyText);
  const { limit, remaining } = fields;
  if (limit !== undefined && remaining !== undefined && remaining > limit)
    problems.push(`RateLimit says remaining=${remaining} of a limit of ${limit}`);
  return judgementOf(problems, remaining, limit);
}
