import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type EmulatorHttpServer } from '../../src/adapters/http/http-server.js';
import type { CheckReport } from '../../src/check/check-report.js';
import { DEMO_CONFIG, DEMO_TOKEN } from '../../src/demo-config.js';
import { createEmulator } from '../../src/emulator.js';
import { recordMaker } from '../helpers/check-records.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

type Report = CheckReport & { dropped: number };

const EMAILS = ['ann@example.com', 'ben@example.com', 'cat@example.com', 'dan@example.com'];

/** Clean requests of as many shoppers, each with their own address as caller_id. */
function records(count: number) {
  const make = recordMaker();
  return Array.from({ length: count }, (_, index) =>
    make({
      at: index * 10,
      email: `shopper${index}@example.com`,
      callerId: `203.0.113.${index + 1}`,
    }),
  );
}

let server: EmulatorHttpServer | Server | undefined;
afterEach(async () => {
  const open = server;
  server = undefined;
  if (open === undefined) return;
  if ('url' in open) await open.close(100);
  else await new Promise((resolve) => open.close(resolve));
});

describe('uas check --url', () => {
  it('judges every page of the journal, not only the first', async () => {
    // A dev API that answers at most 3 requests a page, as uas serve does past 100,000.
    const lines = records(8);
    const stand = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const after = Number(url.searchParams.get('after_id') ?? 0);
      const rest = lines.filter((record) => record.id > after);
      const page = rest.slice(0, 3);
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          requests: page,
          dropped: 0,
          next_after_id: rest.length > 3 ? page.at(-1)!.id : null,
        }),
      );
    });
    server = stand;
    await new Promise<void>((resolve) => stand.listen(0, '127.0.0.1', resolve));
    const { port } = stand.address() as { port: number };
    const result = await runCli(['check', '--url', `http://127.0.0.1:${port}`, '--json']);
    expect(result.stderr).toBe('');
    expect((JSON.parse(result.stdout) as Report).summary.requests).toBe(8);
  });

  it('says in every report format how many requests the journal let go', async () => {
    const emulator = createEmulator({ config: { ...DEMO_CONFIG, journal: { size: 3 } } });
    const running = await listen(emulator, 0, '127.0.0.1');
    server = running;
    for (const email of EMAILS)
      await fetch(`${running.url}/v1/users/exists?email=${encodeURIComponent(email)}`, {
        headers: { authorization: `Bearer ${DEMO_TOKEN}` },
      });
    const warning =
      'the journal had let 1 older request go; they are not judged (uas serve --journal-size unbounded keeps them all)';
    const json = await runCli(['check', '--url', running.url, '--json']);
    const report = JSON.parse(json.stdout) as Report;
    expect(report).toMatchObject({ dropped: 1, warnings: [warning] });
    expect(report.summary.requests).toBe(3);
    expect(json.stderr).toBe(`uas: ${warning}\n`);
    const served = (await (await fetch(`${running.url}/__uas/check`)).json()) as Report;
    expect(served.warnings).toEqual([warning]);

    const markdown = join(tempDir('uas-check-url-'), 'report.md');
    const text = await runCli(['check', '--url', running.url, '--markdown', markdown]);
    expect(text.stdout).toContain(`\nincomplete: ${warning}\n`);
    expect(readFileSync(markdown, 'utf8')).toContain(`> ⚠️ **Incomplete:** ${warning}`);
  });
});
