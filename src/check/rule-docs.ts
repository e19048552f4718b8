import type { RuleId } from './check-report.js';

/** The page that explains every rule of `uas check`, relative to the uas package and repository. */
export const CHECK_RULES_PAGE = 'docs/check-rules.md';

/**
 * Where a rule is explained: its section of docs/check-rules.md, which quotes the spec's rules it
 * rests on (a document the user does not have), what it finds and how to fix it. The section's
 * heading is the rule id, which GitHub's anchors keep as it is (lower case, hyphens).
 */
export function ruleDocsLink(rule: RuleId): string {
  return `${CHECK_RULES_PAGE}#${rule}`;
}
