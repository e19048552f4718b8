import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLatencyText } from '../core/config/config-schema.js';
import { resolveScenario, SCENARIO_DEFAULTS } from './scenario.js';

/** The JSON block that follows the scenario-file heading of docs/simulate.md. */
function documentedDefaults(): string {
  const page = readFileSync(new URL('../../docs/simulate.md', import.meta.url), 'utf8');
  const heading = page.indexOf('## Scenario file');
  const block = /```json\n([\s\S]*?)```/.exec(page.slice(heading));
  if (heading === -1 || block === null)
    throw new Error('docs/simulate.md has no scenario file block');
  return block[1] as string;
}

const thinkOf = (thinkTime: string) => {
  try {
    const { thinkMinMs, thinkMaxMs } = resolveScenario({ shoppers: { thinkTime } }).shoppers;
    return { minMs: thinkMinMs, maxMs: thinkMaxMs };
  } catch {
    return undefined;
  }
};

describe('resolveScenario', () => {
  it.each(['3s', '2s-8s', ' 2s - 8s ', '500ms-1s', '0s', '1m-30s', '2s-', '-2s', '1s-2s-3s', 'x'])(
    'reads the think time %j as the config reads a latency range',
    (text) => {
      expect(thinkOf(text)).toEqual(parseLatencyText(text));
    },
  );
});

describe('the scenario defaults in docs/simulate.md', () => {
  it('are valid JSON that the resolver accepts unchanged, and are the defaults', () => {
    const text = documentedDefaults();
    const parsed: unknown = JSON.parse(text);
    expect(resolveScenario(parsed)).toEqual(resolveScenario({}));
    expect(parsed).toEqual(SCENARIO_DEFAULTS);
  });
});

describe('the modes of a scenario', () => {
  const problemOf = (modes: unknown) => {
    try {
      resolveScenario({ modes });
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('are each run once: a mode given twice is refused, naming it, rather than run again', () => {
    expect(problemOf(['shared', 'per-caller', 'shared'])).toContain(
      'expected each mode once; got "shared" twice',
    );
    expect(problemOf(['rotating', 'rotating'])).toContain('got "rotating" twice');
    expect(problemOf(['shared', 'per-caller', 'static', 'rotating'])).toBeUndefined();
    expect(problemOf(['static'])).toBeUndefined();
  });
});
