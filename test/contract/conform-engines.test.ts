import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../../src/demo-config.js';
import { TRANSPORTS, type Target } from '../helpers/targets.js';
import { checksOf, conformInProcess } from './conform-helpers.js';

/** `uas conform` passes every check against the emulator, whichever way it is served. */
describe.each(TRANSPORTS)(
  'uas conform --exhaust --dev-api against the emulator over $name',
  (transport) => {
    let target: Target | undefined;
    afterEach(async () => {
      await target?.close();
    });

    it('passes every check, waiting Retry-After on the emulator clock', async () => {
      target = await transport.start();
      const started = target.clock.now();
      const result = await conformInProcess(
        ['--url', target.baseUrl, '--token', DEMO_TOKEN, '--exhaust', '--dev-api', '--json'],
        target.clock,
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const checks = checksOf(result);
      expect(Object.entries(checks).filter(([, check]) => check.result !== 'pass')).toEqual([]);
      expect(Object.keys(checks)).toHaveLength(14);
      // The only wait was Retry-After (1 s at the demo limits), on the emulator's manual clock.
      expect(target.clock.now() - started).toBe(1_000);
    });

    it('passes in every other header style, told which to expect', async () => {
      target = await transport.start();
      for (const headers of ['draft-7', 'draft-6', 'x-ratelimit', 'none'] as const) {
        target.emulator.configure({ behavior: { headers } });
        const result = await conformInProcess(
          [
            '--url',
            target.baseUrl,
            '--token',
            DEMO_TOKEN,
            '--headers',
            headers,
            '--json',
            '--max-requests',
            '40',
          ],
          target.clock,
          { runId: `style-${headers}` },
        );
        const checks = checksOf(result);
        expect(
          Object.entries(checks).filter(([, check]) => check.result === 'fail'),
          headers,
        ).toEqual([]);
        expect(result.code).toBe(0);
        if (headers === 'none')
          expect(checks['headers.rate-limit']).toMatchObject({ result: 'skip' });
      }
    });
  },
);
