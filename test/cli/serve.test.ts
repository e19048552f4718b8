import { spawn } from 'node:child_process';
import {
  closeSync,
  openSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CONFIG } from '../../src/demo-config.js';
import { createApi } from '../helpers/api.js';
import { eventually } from '../helpers/eventually.js';
import { runCli } from '../helpers/run-cli.js';
import { runUas, spawnUas, UAS_BIN, waitForUrl, type UasProcess } from '../helpers/spawn-uas.js';
import { tempDir } from '../helpers/temp-dir.js';

const running: UasProcess[] = [];
const serve = async (args: string[] = []) => {
  const uas = spawnUas(['serve', '--port', '0', ...args]);
  running.push(uas);
  return { uas, url: await waitForUrl(uas) };
};

afterEach(async () => {
  for (const uas of running.splice(0)) {
    if (uas.child.exitCode === null) {
      uas.child.kill('SIGKILL');
      await uas.exited;
    }
  }
});

const tempFile = (name: string, content: string) => {
  const dir = tempDir('uas-cli-');
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
};

describe('uas serve', () => {
  it('starts with the bundled fixtures, prints the URL and demo token, answers, logs, and exits on SIGINT', async () => {
    const { uas, url } = await serve();
    expect(uas.stdout()).toContain('token uas-demo-token');
    const api = createApi(url);
    expect((await api.exists('email=alice%40example.com&caller_id=1.2.3.4')).status).toBe(200);
    await uas.waitFor(/GET\s+\/v1\/users\/exists\s+caller:demo:1\.2\.3\.4\s+200 4 left/);
    await api.start({ email: 'bob@example.com' });
    await uas.waitFor(/code \d{6} for bob@example\.com/);
    uas.child.kill('SIGINT');
    expect(await uas.exited).toBe(0);
    expect(uas.stdout()).toContain('SIGINT: shutting down');
  });

  it('says in one line, without a stack, that --workers cannot write the config its workers read', async () => {
    const before = process.env.TMPDIR;
    process.env.TMPDIR = join(tempDir('uas-tmpdir-'), 'not-there');
    try {
      const result = await runCli([
        'serve',
        '--workers',
        '2',
        '--store',
        'redis://127.0.0.1:1',
        '--port',
        '0',
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^uas: --workers: cannot write the config the workers read to .*not-there: no such file\n$/,
      );
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });

  it('shuts down cleanly on SIGTERM too', async () => {
    const { uas } = await serve(['--log', 'off']);
    uas.child.kill('SIGTERM');
    expect(await uas.exited).toBe(0);
    expect(uas.stdout()).toContain('SIGTERM: shutting down');
  });

  it('exits within the grace period on SIGTERM while an answer waits on its latency', async () => {
    const { uas, url } = await serve(['--latency', '60s', '--log', 'off']);
    const api = createApi(url);
    const pending = api.exists('email=alice%40example.com');
    // The emulator journals the request as it answers it, before the answer waits its latency.
    await eventually(
      async () => ((await api.dev('/requests')).body.requests as unknown[]).length === 1,
    );
    const started = Date.now();
    uas.child.kill('SIGTERM');
    expect(await uas.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(3_000);
    // The waiting request is answered at once rather than dropped.
    expect((await pending).status).toBe(200);
  });

  it('keeps serving, quietly, when the reader of its output goes away (| grep -m1, | head)', async () => {
    const { uas, url } = await serve();
    uas.child.stdout?.destroy();
    const api = createApi(url);
    for (let index = 0; index < 20; index++)
      expect((await api.exists('email=alice%40example.com')).status).toBe(200);
    uas.child.kill('SIGTERM');
    expect(await uas.exited).toBe(0);
    expect(uas.stderr()).toBe('');
  });

  it('keeps serving when its output cannot be written at all (a full disk)', async () => {
    const full = openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [UAS_BIN, 'serve', '--port', '0'], {
      stdio: ['ignore', full, 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // The URL cannot be read from the output: find the port from the process's sockets instead.
    let found: number | undefined;
    await eventually(
      () => (found = listeningPort(child.pid as number)) !== undefined,
      10_000,
    ).catch((error: Error) => {
      throw new Error(`no port (${error.message}); stderr: ${stderr}`);
    });
    const port = found as number;
    const api = createApi(`http://127.0.0.1:${port}`);
    for (let index = 0; index < 5; index++)
      expect((await api.exists('email=alice%40example.com')).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    closeSync(full);
  });

  it('applies limit and code flags over the config file', async () => {
    const { url } = await serve([
      '--caller-burst',
      '2',
      '--cost',
      'exists=2',
      '--otp',
      'fixed:424242',
      '--log',
      'off',
    ]);
    const api = createApi(url);
    expect((await api.exists('email=alice%40example.com&caller_id=a')).status).toBe(200);
    expect((await api.exists('email=alice%40example.com&caller_id=a')).status).toBe(429);
    await api.start({ email: 'alice@example.com' });
    expect(
      (await api.verify({ email: 'alice@example.com', verification_code: '424242' })).status,
    ).toBe(200);
  });

  it('gives the 429s --chaos injects the Retry-After of --chaos-retry-after, and refuses a bad one', async () => {
    const { url } = await serve(['--chaos', '1', '--chaos-retry-after', '3', '--log', 'off']);
    const api = createApi(url);
    for (let index = 0; index < 5; index++)
      expect((await api.exists('email=alice%40example.com')).headers.get('retry-after')).toBe('3');
    const bad = await runUas(['serve', '--port', '0', '--chaos-retry-after', '5-1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'uas: invalid --chaos-retry-after: expected the shorter wait first, such as "1-5"; got "5-1"\n',
    );
  });

  it('prints first the line docs/testing.md gives, the address as its fifth word', async () => {
    const { uas, url } = await serve();
    const [first] = uas.stdout().split('\n');
    expect(first).toBe(`uas emulator listening on ${url} (engine fast)`);
    expect(first?.split(' ')[4]).toBe(url);
  });

  it('says in the banner when codes are fixed, latency is added and 429s are injected', async () => {
    const { uas } = await serve([
      '--otp',
      'fixed:424242',
      '--latency',
      '50ms-200ms',
      '--chaos',
      '0.1',
      '--shadow',
    ]);
    const banner = uas.stdout().split('\n');
    expect(banner).toContain('  codes     fixed: every one-time code is 424242');
    expect(banner).toContain('  latency   50ms-200ms added to every answer');
    expect(banner).toContain(
      '  chaos     429 injected at random on 10% of requests (no token taken)',
    );
    expect(banner).toContain(
      '  shadow    requests are counted, never refused for an empty bucket (UAS-Shadow-Limited: true says which would be)',
    );
    const plain = await serve();
    expect(plain.uas.stdout()).not.toMatch(/^ {2}(codes|latency|chaos|shadow) /m);
    const json = spawnUas([
      'serve',
      '--port',
      '0',
      '--log',
      'json',
      '--otp',
      'fixed:424242',
      '--latency',
      '100ms',
    ]);
    running.push(json);
    const [line] = await json.waitFor(/\{"type":"listening".*\}/);
    expect(JSON.parse(line)).toMatchObject({
      codes: { mode: 'fixed', code: '424242' },
      latency_ms: { min: 100, max: 100 },
      chaos: 0,
      shadow: false,
    });
  });

  it('warns after the banner when it listens on a port that browsers and fetch refuse', async () => {
    // One of the blocked ports that is free here.
    const free = async (port: number) =>
      new Promise<boolean>((resolve) => {
        const probe = createServer();
        probe.once('error', () => resolve(false));
        probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
      });
    let port: number | undefined;
    for (const candidate of [6666, 6667, 6668, 6669, 6000, 10080])
      if (await free(candidate)) {
        port = candidate;
        break;
      }
    if (port === undefined) throw new Error('no blocked port is free here');
    const uas = spawnUas(['serve', '--port', String(port)]);
    running.push(uas);
    await uas.waitFor(/port \d+ is one the Fetch standard blocks.*\n/);
    expect(uas.stdout()).toContain(
      `port ${port} is one the Fetch standard blocks: browsers (the dashboard) and clients built on fetch`,
    );
    const plain = await serve();
    expect(plain.uas.stdout()).not.toMatch(/Fetch standard/);
  });

  it('serves the same answers with --engine msw', async () => {
    const { url } = await serve(['--engine', 'msw', '--log', 'off']);
    const reply = await createApi(url).exists('email=alice%40example.com');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('ratelimit')).toBe('"client";r=19;t=1');
    expect((await fetch(`${url}/nothing`)).status).toBe(404);
  });

  it('tries handlers of the user before the emulator with --engine msw --handlers', async () => {
    const module = tempFile(
      'handlers.mjs',
      `import { http, HttpResponse } from ${JSON.stringify(import.meta.resolve('msw'))};\nexport const handlers = [http.get('*/v1/users/exists', () => HttpResponse.json({ exists: 'custom' }))];\n`,
    );
    const { url } = await serve(['--engine', 'msw', '--handlers', module, '--log', 'off']);
    expect((await createApi(url).exists('email=alice%40example.com')).body).toEqual({
      exists: 'custom',
    });
  });

  it('prints only JSON with --log json: the banner, one object per event, the shutdown', async () => {
    const uas = spawnUas(['serve', '--port', '0', '--log', 'json']);
    running.push(uas);
    const [banner] = await uas.waitFor(/\{"type":"listening".*\}/);
    const { url } = JSON.parse(banner) as { url: string };
    expect(JSON.parse(banner)).toMatchObject({
      engine: 'fast',
      bundled: true,
      clients: [
        expect.objectContaining({ id: 'demo', token: 'uas-demo-token' }),
        expect.anything(),
      ],
      dev_api: `${url}/__uas`,
      dashboard: `${url}/__uas/ui/`,
    });
    await createApi(url).exists('email=alice%40example.com');
    await uas.waitFor(/\{"type":"request".*\}/);
    uas.child.kill('SIGTERM');
    expect(await uas.exited).toBe(0);
    const lines = uas
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(lines.map((line) => line.type)).toEqual(['listening', 'request', 'shutdown']);
    expect(lines[1]).toMatchObject({ request: { status: 200, bucket: 'client:demo' } });
  });

  it('rejects a config file with a bad field with one line and exit code 2', async () => {
    const file = tempFile(
      'bad.json',
      JSON.stringify({
        ...DEMO_CONFIG,
        limits: { ...DEMO_CONFIG.limits, caller: { burst: 5, rate: 'often' } },
      }),
    );
    const result = await runUas(['serve', '--port', '0', '--config', file]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('limits.caller.rate: expected a rate such as "10/s"');
  });

  it('rejects unreadable or malformed config files and bad flags with exit code 2', async () => {
    const missing = await runUas(['serve', '--config', '/nonexistent/uas.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'uas: cannot read config file /nonexistent/uas.json: no such file\n',
    );
    const malformed = await runUas(['serve', '--config', tempFile('broken.json', '{"clients": [')]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('is not valid JSON');
    const rate = await runUas(['serve', '--port', '0', '--client-rate', 'fast']);
    expect(rate.code).toBe(2);
    expect(rate.stderr).toBe(
      'uas: invalid --client-rate: expected a rate such as "10/s", "100/m" or "5/10s"; got "fast"\n',
    );
    const port = await runUas(['serve', '--port', 'eighty']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain("option '-p, --port <port>' argument 'eighty' is invalid");
    const cost = await runUas(['serve', '--port', '0', '--cost', 'start=9']);
    expect(cost.code).toBe(2);
    expect(cost.stderr).toBe(
      'uas: invalid --cost: start: 9 is more than limits.caller.burst (5); such a request could never pass\n',
    );
    const unknown = await runUas(['serve', '--colour']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--colour'");
  });

  it('refuses a --record file it cannot open before it listens: one line, exit code 2', async () => {
    // runUas waits for the process to end: a server left listening would time the test out.
    const missing = await runUas(['serve', '--port', '0', '--record', '/nonexistent/dir/x.ndjson']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'uas: cannot open --record /nonexistent/dir/x.ndjson: ENOENT: its folder does not exist\n',
    );
    expect(missing.stdout).not.toContain('listening');
    const directory = await runUas(['serve', '--port', '0', '--record', tempDir('uas-record-')]);
    expect(directory.code).toBe(2);
    expect(directory.stderr).toMatch(/^uas: cannot open --record .*: EISDIR: it is a directory\n$/);
    // An empty name is no file name (resolved, it would be the current folder).
    const empty = await runUas(['serve', '--port', '0', '--record', '']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe('uas: --record is empty; give the file to record to\n');
    // "-" is the standard input of --journal; here it would be a file of that name.
    const dash = await runUas(['serve', '--port', '0', '--record', '-']);
    expect(dash.code).toBe(2);
    expect(dash.stderr).toBe(
      'uas: --record - would write a file named "-"; give the path of the file to record to\n',
    );
    // A buffer for no recording is a mistake said, not a flag ignored.
    const alone = await runUas(['serve', '--port', '0', '--record-buffer', '64kb']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toBe('uas: --record-buffer goes with --record <file>\n');
  });

  it('reports every config problem, each on its line, with the closest known field', async () => {
    const file = tempFile(
      'typos.json',
      JSON.stringify({
        ...DEMO_CONFIG,
        limits: { ...DEMO_CONFIG.limits, calller: {}, callerscope: 'global' },
        users: [{ email: 'a@example.com', phone: '+14155550100' }],
        clients: [{ ...DEMO_CONFIG.clients[0], tokn: 'x' }],
        otp: { ttl: '300000y' },
        behavior: { retryAfter: 'fixed:100000000000000000000000', latency: '30d' },
      }),
    );
    const result = await runCli(['serve', '--port', '0', '--config', file]);
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines.every((line) => line.startsWith(`uas: invalid config in ${file}: `))).toBe(true);
    const problems = lines.map((line) => line.slice(`uas: invalid config in ${file}: `.length));
    expect(problems).toEqual(
      expect.arrayContaining([
        'clients[0].tokn: unknown field (did you mean "token"?)',
        'users[0].phone: unknown field (did you mean "phone_number"?)',
        'limits.calller: unknown field (did you mean "caller"?)',
        'limits.callerscope: unknown field (did you mean "callerScope"?)',
        'behavior.retryAfter: expected "exact", "absent" or "fixed:<seconds>" with 0 to 86400 seconds; got "fixed:100000000000000000000000"',
        'behavior.latency: expected a latency such as "0", "100ms" or "50ms-200ms", at most 1h; got "30d"',
        'otp.ttl: expected at most 365d; got "300000y"',
      ]),
    );
    expect(problems).toHaveLength(7);
  });

  it('says where a config file stops being JSON', async () => {
    const file = tempFile('syntax.json', '{\n  "clients": [],\n  "users": [] "limits": {}\n}\n');
    const result = await runCli(['serve', '--config', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `uas: config file ${file} is not valid JSON: line 3, column 15: expected a comma\n`,
    );
  });

  it('refuses a config file nested too deep, and reads one that starts with a byte-order mark', async () => {
    const deep = tempFile('deep.json', `{"x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`);
    const refused = await runCli(['serve', '--config', deep]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `uas: config file ${deep} nests objects or arrays deeper than 64 levels\n`,
    );
    const bom = tempFile(
      'bom.json',
      `\uFEFF${JSON.stringify({ ...DEMO_CONFIG, limits: { ...DEMO_CONFIG.limits, client: { burst: 0, rate: '1/s' } } })}`,
    );
    // Read as JSON (the mark ignored): the problem reported is the field's.
    expect((await runCli(['serve', '--config', bom])).stderr).toContain('limits.client.burst');
  });

  it('refuses a config file larger than 16 MiB without reading it', async () => {
    const file = tempFile(
      'huge.json',
      `{"users": [${'{"email":"a@example.com"},'.repeat(700_000)}]}`,
    );
    const result = await runCli(['serve', '--config', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is larger than 16 MiB');
  });

  it('says clearly when the port is in use', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runUas(['serve', '--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `uas: port ${port} is already in use on 127.0.0.1; choose another with --port\n`,
      );
    } finally {
      blocker.close();
    }
  });
});

describe('uas --help', () => {
  it('lists the commands and exits 0', async () => {
    const result = await runUas(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('serve');
  });
});

/** The port a process listens on, read from /proc (its sockets' inodes in /proc/net/tcp). */
function listeningPort(pid: number): number | undefined {
  let inodes: Set<string>;
  try {
    inodes = new Set(
      readdirSync(`/proc/${pid}/fd`)
        .map((fd) => {
          try {
            return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
          } catch {
            return undefined;
          }
        })
        .filter((inode): inode is string => inode !== undefined),
    );
  } catch {
    return undefined;
  }
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    // local address, state 0A (LISTEN), inode
    if (fields[3] === '0A' && inodes.has(fields[9] ?? ''))
      return parseInt((fields[1] ?? '').split(':')[1] ?? '', 16);
  }
  return undefined;
}
