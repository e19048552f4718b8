import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROBLEM_KINDS, problemType, QUOTA_EXCEEDED_TYPE, type ProblemKind } from './problems.js';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the problem types', () => {
  it('are each listed in README, with their status', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const row = (type: string, status: number) =>
      new RegExp(`\\| \`${escape(type)}\` +\\| ${status} +\\|`);
    for (const [kind, { status }] of Object.entries(PROBLEM_KINDS))
      expect(readme, kind).toMatch(row(problemType(kind as ProblemKind), status));
    expect(readme).toMatch(row(QUOTA_EXCEEDED_TYPE, 429));
  });
});
