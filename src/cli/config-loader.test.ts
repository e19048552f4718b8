import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../core/config/config.js';
import { ConfigError, configIssue } from '../core/config/config-error.js';
import {
  applyConfigFlags,
  configErrorToCli,
  configFlagsOf,
  keyGivenTwice,
  readJsonFile,
} from './config-loader.js';

const file = {
  clients: [{ id: 'demo', token: 'uas-demo-token', merchants: [] }],
  users: [],
  limits: {
    client: { burst: 20, rate: '10/s' },
    caller: { burst: 5, rate: '1/s' },
    cost: { exists: 3, verify: 2 },
  },
};

describe('applyConfigFlags', () => {
  it('keeps the costs of the file that --cost does not name', () => {
    const config = applyConfigFlags(file, configFlagsOf({ cost: { start: 2 } }));
    expect(resolveConfig(config).source.limits.cost).toEqual({ exists: 3, start: 2, verify: 2 });
    expect(file.limits.cost).toEqual({ exists: 3, verify: 2 });
  });

  it('replaces a field of the file that is no object with the object the flag gives', () => {
    const config = applyConfigFlags(
      { ...file, limits: { ...file.limits, cost: 'junk' } },
      configFlagsOf({ cost: { start: 2 } }),
    );
    expect((config.limits as Record<string, unknown>).cost).toEqual({ start: 2 });
  });
});

describe('configErrorToCli', () => {
  it('names --cost for a cost it gave, and the file for a cost the file gave', () => {
    const flags = configFlagsOf({ cost: { start: 9 } });
    const error = new ConfigError([
      configIssue(['limits', 'cost', 'start'], '9 is more than limits.caller.burst (5)'),
      configIssue(['limits', 'cost', 'exists'], '7 is more than limits.caller.burst (5)'),
    ]);
    expect(configErrorToCli(error, flags, 'config in my.json').message).toBe(
      'invalid --cost: start: 9 is more than limits.caller.burst (5)\n' +
        'invalid config in my.json: limits.cost.exists: 7 is more than limits.caller.burst (5)',
    );
  });

  it('says when the limit a file field is compared with came from a flag', () => {
    const flags = configFlagsOf({ callerBurst: 2 });
    const error = new ConfigError([
      configIssue(['limits', 'cost', 'start'], '3 is more than limits.caller.burst (2)'),
    ]);
    expect(configErrorToCli(error, flags, 'config in my.json').message).toBe(
      'invalid config in my.json: limits.cost.start: 3 is more than limits.caller.burst (from --caller-burst: 2)',
    );
  });
});

describe('keyGivenTwice', () => {
  it('finds a key given twice in one object, with its line and column', () => {
    const text = '{\n  "limits": {},\n  "users": [{ "email": "a@b.c", "email": "d@e.f" }]\n}';
    expect(keyGivenTwice(text)).toEqual({ key: 'email', where: 'line 3, column 33' });
    expect(keyGivenTwice('{"a": 1, "\\u0061": 2}')).toEqual({
      key: 'a',
      where: 'line 1, column 10',
    });
  });

  it('finds none when each object gives its keys once, though objects share them', () => {
    expect(keyGivenTwice('{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}')).toBeUndefined();
  });
});

describe('readJsonFile', () => {
  it('refuses a config file that gives a field twice, naming it and where', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'uas-config-'));
    const path = join(dir, 'twice.json');
    writeFileSync(path, '{\n  "limits": {},\n  "limits": {}\n}');
    try {
      await expect(readJsonFile(path, 'config file')).rejects.toThrow(
        `config file ${path} gives "limits" twice in one object (line 3, column 3); only one of them would count, so give it once`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
