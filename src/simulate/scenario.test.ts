import { describe, expect, it } from 'vitest';
import { parseLatencyText } from '../core/config/config-schema.js';
import { resolveScenario } from './scenario.js';

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
