import type { HeaderStyle } from '../core/config/config-schema.js';
import { judgeDraft10Fields } from './judge-draft-10-fields.js';
import { judgeDraft7Fields } from './judge-draft-7-fields.js';
import { judgeNumericFields } from './judge-numeric-fields.js';
import type { RateLimitJudgement } from './rate-limit-judgement.js';
import { createFieldReader } from './structured-field-reader.js';

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
  const reader = createFieldReader(get);
  switch (style) {
    case 'draft-10':
      return judgeDraft10Fields(reader);
    case 'draft-7':
      return judgeDraft7Fields(reader);
    case 'draft-6':
      return judgeNumericFields(reader, 'RateLimit');
    case 'x-ratelimit':
      return judgeNumericFields(reader, 'X-RateLimit');
  }
}
