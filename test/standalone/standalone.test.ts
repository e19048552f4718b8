import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_REDIS, startRedis, type TestRedis } from '../helpers/redis-server.js';

// The standalone executable (npm run build:standalone), built once here and run with a PATH that
// holds no node (only sh and redis-server), its cache in a home of its own: every command works
// from it, the optional pieces inside it.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

let work = '';
let exe = '';
let env: Record<string, string> = {};
const children: ChildProcess[] = [];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'uas-standalone-'));
  exe = join(work, 'uas-linux-x64');
  const built = spawnSync('npm', ['run', 'build:standalone'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, UAS_SEA_OUTPUT: exe },
    timeout: 600_000,
  });
  if (built.status !== 0)
    throw new Error(`build:standalone failed:\n${built.stdout}${built.stderr}`);
  // A PATH without node: the programs the test runs beside the executable, and nothing else.
  const bin = join(work, 'bin');
  mkdirSync(bin);
  for (const tool of ['sh', 'redis-server']) {
    const found = (process.env.PATH ?? '')
      .split(delimiter)
      .map((dir) => join(dir, tool))
      .find((file) => existsSync(file));
    if (found !== undefined) symlinkSync(found, join(bin, tool));
  }
  env = { PATH: bin, HOME: join(work, 'home'), NO_COLOR: '1' };
  mkdirSync(env.HOME!);
}, 600_000);

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

const uas = (args: string[], extra: Record<string, string> = {}) => {
  const result = spawnSync(exe, args, {
    cwd: work,
    encoding: 'utf8',
    env: { ...env, ...extra },
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
};

/** `uas serve ...args` from the executable, once it says where it listens. */
async function serve(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(exe, ['serve', '--port', '0', ...args], {
    cwd: work,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (found) resolve(found[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`uas serve exited ${code}: ${out}`)));
  });
  return { child, url };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = once(child, 'exit');
  child.kill('SIGINT');
  return ((await exited) as [number | null])[0];
}

describe('the standalone executable, with no node on PATH', () => {
  it('is what README says to build and run', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /```sh\n(npm run build:standalone[\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const lines = block.split('\n').map((line) => line.replace(/\s+#\s.*$/, '').trim());
    expect(lines.filter(Boolean)).toEqual(['npm run build:standalone', './uas-linux-x64 serve']);
  });

  it('has no node on its PATH, and prints its version and help', () => {
    expect(spawnSync('sh', ['-c', 'command -v node'], { env }).status).not.toBe(0);
    expect(uas(['--version']).out.trim()).toBe(VERSION);
    expect(uas(['--help']).out).toMatch(/^Usage: uas /);
  });

  it('unpacks into a temporary folder where the cache folder cannot be made', () => {
    // /proc exists, yet refuses new folders with ENOENT, on which mkdir -p would loop for ever.
    expect(uas(['-V'], { XDG_CACHE_HOME: '/proc' })).toEqual({
      code: 0,
      out: `${VERSION}\n`,
      err: '',
    });
  });

  it("unpacks into the user's cache folder, and never makes a home that does not exist", () => {
    expect(uas(['-V']).code).toBe(0);
    expect(readdirSync(join(env.HOME!, '.cache', 'uas'))).toEqual([
      expect.stringMatching(/^standalone-/),
    ]);
    // A service account's HOME=/nonexistent: run as root, it could be made; it is not.
    const missingHome = join(work, 'nonexistent');
    expect(uas(['-V'], { HOME: missingHome })).toEqual({ code: 0, out: `${VERSION}\n`, err: '' });
    expect(existsSync(missingHome)).toBe(false);
  });

  it('ignores a relative XDG_CACHE_HOME, as the XDG spec says, rather than failing with a stack trace', () => {
    expect(uas(['-V'], { XDG_CACHE_HOME: 'relative-cache' })).toEqual({
      code: 0,
      out: `${VERSION}\n`,
      err: '',
    });
    expect(existsSync(join(work, 'relative-cache'))).toBe(false);
  });

  it('says in one line that it has nowhere to unpack when neither a cache nor TMPDIR is writable', () => {
    const result = uas(['-V'], {
      HOME: join(work, 'nonexistent'),
      TMPDIR: join(work, 'no-such-tmp'),
    });
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toMatch(/^uas: no folder to unpack into: .*no-such-tmp.*ENOENT.*\n$/);
  });

  it('refuses a cache folder other users may write to: they could put code of theirs in it', () => {
    const cache = join(work, 'shared-cache');
    mkdirSync(join(cache, 'uas'), { recursive: true });
    chmodSync(join(cache, 'uas'), 0o777);
    const result = uas(['-V'], { XDG_CACHE_HOME: cache });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(
      /^uas: .*shared-cache\/uas may be written by other users: chmod 700 it/,
    );
    expect(readdirSync(join(cache, 'uas'))).toEqual([]);
  });

  it('says in uas doctor that it is the standalone executable, ink, msw and ioredis inside', () => {
    // Exit 1 if something else holds port 4010 here: what it says of itself is the same.
    const doctor = uas(['doctor', '--json']);
    const found = JSON.parse(doctor.out) as {
      uas: { standalone: boolean };
      optional: { name: string; ok: boolean }[];
    };
    expect(found.uas.standalone).toBe(true);
    expect(found.optional.filter((piece) => piece.name !== 'redis-server')).toEqual([
      expect.objectContaining({ name: 'screen', ok: true }),
      expect.objectContaining({ name: 'msw', ok: true }),
      expect.objectContaining({ name: 'redis', ok: true }),
    ]);
  });

  it('serves, and call, code, top, conform and openapi work against it', async () => {
    const { child, url } = await serve([]);
    const flow = uas(['call', 'start', '--email', 'alice@example.com', '--url', url]);
    expect(flow.code, flow.err).toBe(0);
    expect(uas(['code', 'alice@example.com', '--url', url]).out).toMatch(/^\d{6}\n$/);
    expect(uas(['top', '--once', '--url', url]).out).toContain(`${url}, up `);
    const conform = uas(['conform', '--url', url, '--token', 'uas-demo-token']);
    expect(conform.code, conform.out + conform.err).toBe(0);
    expect((JSON.parse(uas(['openapi']).out) as { openapi: string }).openapi).toBe('3.1.0');
    // The web dashboard ships inside the executable.
    const page = await fetch(`${url}/__uas/ui/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script');
    expect(await stop(child)).toBe(0);
  }, 120_000);

  it('serves with the msw engine', async () => {
    const { child, url } = await serve(['--engine', 'msw']);
    expect(uas(['call', 'exists', '--email', 'alice@example.com', '--url', url]).code).toBe(0);
    expect(await stop(child)).toBe(0);
  }, 60_000);

  it('checks a command (itself as the integration) under uas check --', () => {
    const check = uas([
      'check',
      '--chaos',
      '0',
      '--',
      exe,
      'call',
      'flow',
      '--email',
      'alice@example.com',
    ]);
    expect(check.out + check.err).toMatch(
      /uas check: .* 3 requests \(exists 1, start 1, verify 1\)/,
    );
  }, 60_000);

  it('simulates a preset', () => {
    const simulate = uas(['simulate', '--preset', 'user-enumeration', '--duration', '1m']);
    expect(simulate.code, simulate.err).toBe(0);
    expect(simulate.err).toMatch(/simulated \d+ requests/);
    expect(simulate.out).toContain('user-enumeration');
  }, 60_000);

  describe.skipIf(!HAS_REDIS)('with Redis', () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(() => redis?.stop());

    it('runs --workers 2 on one Redis store: the workers are the executable itself', async () => {
      const { child, url } = await serve(['--workers', '2', '--store', redis.url]);
      const exists = uas(['call', 'exists', '--email', 'alice@example.com', '--url', url]);
      expect(exists.code, exists.err).toBe(0);
      expect(await stop(child)).toBe(0);
    }, 120_000);

    it('starts a Redis of its own with --store redis', async () => {
      const { child, url } = await serve(['--store', 'redis']);
      expect(uas(['call', 'exists', '--email', 'alice@example.com', '--url', url]).code).toBe(0);
      expect(await stop(child)).toBe(0);
    }, 60_000);
  });
});
