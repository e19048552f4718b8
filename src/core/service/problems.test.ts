import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROBLEM_KINDS, problemType, QUOTA_EXCEEDED_TYPE, type ProblemKind } from './problems.js';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the problem types', () => {
  it('are each listed in docs/service.md, with their status', () => {
    const page = readFileSync(new URL('../../../docs/service.md', import.meta.url), 'utf8');
    const row = (type: string, status: number) =>
      new RegExp(`\\| \`${escape(type)}\` +\\| ${status} +\\|`);
    for (const [kind, { status }] of Object.entries(PROBLEM_KINDS))
      expect(page, kind).toMatch(row(problemType(kind as ProblemKind), status));
    expect(page).toMatch(row(QUOTA_EXCEEDED_TYPE, 429));
  });
});
