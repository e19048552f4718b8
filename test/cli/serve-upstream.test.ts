import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/check/check-report.js';
import { DEMO_CONFIG, DEMO_MERCHANT } from '../../src/demo-config.js';
import { configWith, rawExchange, REAL_TOKEN, useInstances } from '../helpers/proxy-stand-in.js';
import { runUas, spawnUas, waitForUrl, type UasProcess } from '../helpers/spawn-uas.js';
import { tempDir } from '../helpers/temp-dir.js';

const start = useInstances();
const spawned: UasProcess[] = [];
afterEach(async () => {
  for (const uas of spawned.splice(0)) {
    uas.child.kill('SIGTERM');
    await uas.exited;
  }
});

const auth = { authorization: `Bearer ${REAL_TOKEN}`, 'content-type': 'application/json' };

/** A small integration's traffic: shoppers sharing one caller_id, and one without any. */
async function integrationTraffic(url: string): Promise<void> {
  for (const email of ['alice@example.com', 'bob@example.com', 'carol@example.com'])
    await rawExchange(`${url}/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ email, caller_id: 'checkout-web' }),
    });
  await rawExchange(`${url}/v1/users/exists?email=alice%40example.com`, { headers: auth });
}

const rulesOf = (stdout: string) =>
  (JSON.parse(stdout) as CheckReport).findings.map((finding) => finding.rule).sort();

describe('uas serve --upstream (the built CLI)', () => {
  it('logs and records the forwarded traffic without the token, and uas check --url on it finds the same rules as on the real service', async () => {
    const real = await start(configWith({ callerBurst: 100 }));
    const record = join(tempDir('uas-upstream-'), 'staging.ndjson');
    const proxy = spawnUas([
      'serve',
      '--port',
      '0',
      '--upstream',
      real.url,
      '--enforce',
      'shadow',
      '--record',
      record,
    ]);
    spawned.push(proxy);
    const url = await waitForUrl(proxy);
    expect(proxy.stdout()).toContain(`upstream  ${real.url}`);
    await integrationTraffic(url);
    const onProxy = await runUas(['check', '--url', url, '--json']);
    const onReal = await runUas(['check', '--url', real.url, '--json']);
    expect(rulesOf(onProxy.stdout)).toEqual(rulesOf(onReal.stdout));
    expect(rulesOf(onProxy.stdout)).toContain('caller-id-missing');
    proxy.child.kill('SIGTERM');
    await proxy.exited;
    const recorded = readFileSync(record, 'utf8');
    expect(recorded.trim().split('\n')).toHaveLength(4);
    expect(recorded).toContain('"answered_by":"upstream"');
    for (const text of [proxy.stdout(), proxy.stderr(), recorded, onProxy.stdout])
      expect(text).not.toContain(REAL_TOKEN);
  });

  it('refuses a config file whose behavior sets chaos or latency with --upstream', async () => {
    const dir = tempDir('uas-upstream-config-');
    for (const [key, value] of [
      ['chaos', 0.2],
      ['latency', '20ms'],
    ] as const) {
      const file = join(dir, `${key}.json`);
      writeFileSync(file, JSON.stringify({ ...DEMO_CONFIG, behavior: { [key]: value } }));
      const { code, stderr } = await runUas([
        'serve',
        '--port',
        '0',
        '--config',
        file,
        '--upstream',
        'http://example.com',
      ]);
      expect(code).toBe(2);
      expect(stderr.trim()).toMatch(
        new RegExp(`^uas: .*behavior\\.${key} does not apply with --upstream[^\\n]*$`),
      );
    }
  });

  it('redacts the credentials of an --upstream URL it refuses', async () => {
    const { code, stderr } = await runUas([
      'serve',
      '--port',
      '0',
      '--upstream',
      'http://alice:s3cret-pw@example.com',
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('must not hold credentials');
    expect(stderr).not.toContain('s3cret-pw');
    expect(stderr).not.toContain('alice');
  });

  it.each([
    [['--enforce', 'local'], '--enforce needs --upstream <url>'],
    [['--upstream', 'ftp://example.com'], 'expected an http or https URL'],
    [['--upstream', 'http://user:pw@example.com'], 'must not hold credentials'],
    [['--upstream', 'http://example.com', '--engine', 'msw'], 'drop --engine msw'],
    [['--upstream', 'http://localhost:4791', '--port', '4791'], 'would forward to itself'],
    [
      ['--upstream', 'http://example.com', '--chaos', '0.5'],
      '--chaos does not apply with --upstream',
    ],
    [
      ['--upstream', 'http://example.com', '--latency', '50ms'],
      '--latency does not apply with --upstream',
    ],
    [['--upstream', 'http://example.com', '--upstream-ca', 'ca.pem'], 'needs an https --upstream'],
    [
      ['--upstream', 'https://example.com', '--upstream-ca', 'missing.pem'],
      'cannot read --upstream-ca',
    ],
  ])('refuses %j with a one-line usage error', async (flags, message) => {
    const { code, stderr } = await runUas(['serve', '--port', '0', ...flags]);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr.trim().split('\n')[0]).toMatch(/^uas: |^error: /);
  });
});
