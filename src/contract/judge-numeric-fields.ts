import { parseItem } from 'structured-headers';
import { judgementOf, type RateLimitJudgement } from './rate-limit-judgement.js';
import { isWhole, type FieldReader } from './structured-field-reader.js';

/**
 * The fields of draft-6 (`RateLimit-*`) and of the `X-RateLimit-*` convention: whole numbers
 * `Limit`, `Remaining` and `Reset`, each an Item; no more remaining than the limit.
 */
export function judgeNumericFields(
  reader: FieldReader,
  prefix: 'RateLimit' | 'X-RateLimit',
): RateLimitJudgement {
  const { problems } = reader;
  const numbers: Record<string, number | undefined> = {};
  for (const part of ['Limit', 'Remaining', 'Reset']) {
    const name = `${prefix}-${part}`;
    const value = reader.read(name);
    if (value === undefined) continue;
    const item = reader.parse(name, value, 'Item', parseItem);
    if (item !== undefined && !isWhole(item[0]))
      problems.push(`${name} ${JSON.stringify(value)} must be a whole number`);
    numbers[part] = item !== undefined && isWhole(item[0]) ? item[0] : undefined;
  }
  const { Limit: limit, Remaining: remaining } = numbers;
  if (limit !== undefined && remaining !== undefined && remaining > limit)
    problems.push(`${prefix}-Remaining ${remaining} is above ${prefix}-Limit ${limit}`);
  return judgementOf(problems, remaining, limit);
}
