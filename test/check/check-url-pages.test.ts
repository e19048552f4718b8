import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorHttpServer } from '../../src/adapters/http/http-server.js';
import type { CheckReport } from '../../src/check/check-report.js';
import { recordMaker } from '../helpers/check-records.js';
import { runCli } from '../helpers/run-cli.js';

type Report = CheckReport & { dropped: number };

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
});
