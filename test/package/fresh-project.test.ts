import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The packed tarball, installed in fresh projects as a user would (from the npm registry for
// everything else), beside each supported major of msw (msw 3 needs Node 22.12 or later), with
// each recipe of docs/testing.md run there unchanged, and README's install from the tarball.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RECIPES = join(ROOT, 'test/recipes');
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const NODE_22_12 = major > 22 || (major === 22 && minor >= 12);
const SETUPS = [
  { msw: 'msw@2', express: 'express@4', runs: true, note: '' },
  {
    msw: 'msw@3',
    express: 'express@5',
    runs: NODE_22_12,
    note: NODE_22_12 ? '' : `(skipped: msw 3 needs Node 22.12+; CI runs it on Node 24)`,
  },
];
const version = (name: string) =>
  (
    JSON.parse(
      execFileSync('npm', ['pkg', 'get', `devDependencies.${name}`], {
        cwd: ROOT,
        encoding: 'utf8',
      }),
    ) as string
  ).replace(/^\^|~/, '');

let work = '';
let tarball = '';

const run = (command: string, args: string[], cwd: string, env: Record<string, string> = {}) => {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CI: '1', NO_COLOR: '1', ...env },
    timeout: 180_000,
  });
  return { code: result.status, out: `${result.stdout}\n${result.stderr}` };
};

const npm = (args: string[], cwd: string) => {
  const result = run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], cwd);
  if (result.code !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${result.out}`);
};

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'uas-package-'));
  // `npm test` has just built dist/: pack it as it is.
  const packed = execFileSync(
    'npm',
    ['pack', '--ignore-scripts', '--silent', '--pack-destination', work],
    { cwd: ROOT, encoding: 'utf8' },
  ).trim();
  tarball = join(work, packed.split('\n').at(-1) as string);
}, 120_000);

// Several projects' node_modules and a global prefix: removing them takes a while on a busy machine.
afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true });
}, 120_000);

/**
 * `uas serve` (by `command`, with `env` over the test's) listens and stops on SIGINT, and
 * `uas check` passes the correct integration.
 */
async function servesAndChecks(command: string[], env: Record<string, string>): Promise<void> {
  const [program, ...first] = command as [string, ...string[]];
  const serve = spawn(program, [...first, 'serve', '--port', '0'], {
    cwd: work,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A group of its own, stopped as Ctrl-C stops it: npx does not pass SIGINT on to uas.
    detached: true,
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    serve.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/listening on http:\/\/127\.0\.0\.1:\d+/.test(out)) resolve();
    });
    serve.on('exit', () => reject(new Error(`uas serve exited: ${out}`)));
  });
  const stopped = once(serve, 'exit');
  process.kill(-serve.pid!, 'SIGINT');
  await stopped;
  const check = run(
    program,
    [
      ...first,
      'check',
      '--chaos',
      '0',
      '--',
      process.execPath,
      join(ROOT, 'fixtures/integrations/correct.mjs'),
    ],
    work,
    env,
  );
  expect(check.code, check.out).toBe(0);
  expect(check.out).toMatch(/uas check: 0 errors, 0 warnings/);
}

/** The bytes of the files under a directory (their sizes, not the disk blocks they take). */
function bytesUnder(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

describe('the packed package', () => {
  it('ships no source maps, a LICENSE, docs/, and no prepare script; publint and attw find nothing', () => {
    const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(files).toContain('package/LICENSE');
    // A finding links to its rule in docs/check-rules.md: the page ships with the package.
    expect(files).toContain('package/docs/check-rules.md');
    expect(files.some((file) => file.startsWith('package/test/'))).toBe(false);
    const manifest = JSON.parse(
      execFileSync('tar', ['xzf', tarball, '-O', 'package/package.json'], { encoding: 'utf8' }),
    ) as { scripts: Record<string, string>; sideEffects: boolean };
    expect(manifest.scripts.prepare).toBeUndefined();
    expect(manifest.sideEffects).toBe(false);
    const publint = run(
      join(ROOT, 'node_modules/.bin/publint'),
      ['run', '--strict', tarball],
      ROOT,
    );
    expect(publint.code, publint.out).toBe(0);
    const attw = run(
      join(ROOT, 'node_modules/.bin/attw'),
      [tarball, '--profile', 'esm-only', '--format', 'table-flipped'],
      ROOT,
    );
    expect(attw.code, attw.out).toBe(0);
  }, 60_000);

  describe.each(SETUPS)(
    'in a fresh project with $msw and $express$note',
    ({ msw, express, runs }) => {
      let project = '';
      beforeAll(() => {
        if (!runs) return;
        project = join(work, msw.replace('@', '-'));
        mkdirSync(project);
        writeFileSync(
          join(project, 'package.json'),
          JSON.stringify({ name: 'shop', private: true, type: 'module' }),
        );
        cpSync(RECIPES, project, { recursive: true });
        npm(
          [
            'install',
            tarball,
            msw,
            express,
            `vitest@${version('vitest')}`,
            `@playwright/test@${version('@playwright/test')}`,
            `typescript@${version('typescript')}`,
            '@types/node@20',
          ],
          project,
        );
      }, 240_000);

      it.skipIf(!runs)(
        'type-checks the recipes with nothing undeclared',
        () => {
          writeFileSync(
            join(project, 'tsconfig.json'),
            JSON.stringify({
              compilerOptions: {
                target: 'ES2022',
                module: 'NodeNext',
                moduleResolution: 'NodeNext',
                strict: true,
                noEmit: true,
                skipLibCheck: false,
                types: ['node'],
                lib: ['ES2023', 'DOM'],
              },
              include: ['vitest-msw', 'playwright'],
            }),
          );
          const tsc = run('npx', ['tsc', '-p', '.'], project);
          expect(tsc.code, tsc.out).toBe(0);
        },
        180_000,
      );

      it.skipIf(!runs)(
        'runs the vitest recipe',
        () => {
          const vitest = run('npx', ['vitest', 'run', '--dir', 'vitest-msw'], project);
          expect(vitest.code, vitest.out).toBe(0);
          expect(vitest.out).toMatch(/3 passed/);
        },
        180_000,
      );

      it.skipIf(!runs)(
        'runs the Playwright recipe on two workers at once, each with its own emulator',
        () => {
          // Tests of one file split between the workers, ten times over, so that they overlap: a
          // reset or a fault of one worker's test would otherwise land in the other's.
          const playwright = run(
            'npx',
            [
              'playwright',
              'test',
              '--config',
              'playwright/playwright.config.ts',
              '--reporter',
              'line',
              '--workers',
              '2',
              '--fully-parallel',
              '--repeat-each',
              '10',
            ],
            project,
          );
          expect(playwright.code, playwright.out).toBe(0);
          expect(playwright.out).toMatch(/Running 20 tests using 2 workers/);
          expect(playwright.out).toMatch(/20 passed/);
        },
        180_000,
      );

      it.skipIf(!runs)(
        'runs the Express recipe',
        () => {
          const app = run('node', ['express/app.mjs'], project);
          expect(app.code, app.out).toBe(0);
          expect(app.out).toContain('200 {"exists":true,"token_count":2} {"app":"ok"}');
        },
        180_000,
      );
    },
  );

  it('type-checks uas/express and runs the Express recipe with Express and without msw', () => {
    const project = join(work, 'express-only');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'shop-api', private: true, type: 'module' }),
    );
    cpSync(join(RECIPES, 'express'), join(project, 'express'), { recursive: true });
    // A TypeScript app that mounts the emulator, checked with every .d.ts read (skipLibCheck off).
    writeFileSync(
      join(project, 'mount.ts'),
      `import { createServer } from 'node:http';
import { createEmulator } from 'uas';
import { createMiddleware, type MiddlewareOptions } from 'uas/express';
const options: MiddlewareOptions = { emulator: createEmulator(), allowedHosts: ['uas.internal'] };
const uas = createMiddleware(options);
createServer((req, res) => uas(req, res, () => res.writeHead(404).end()));
`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false },
        files: ['mount.ts'],
      }),
    );
    npm(
      ['install', tarball, 'express@4', `typescript@${version('typescript')}`, '@types/node@20'],
      project,
    );
    expect(readdirSync(join(project, 'node_modules'))).not.toContain('msw');
    const tsc = run('npx', ['tsc', '-p', '.'], project);
    expect(tsc.code, tsc.out).toBe(0);
    const app = run('node', ['express/app.mjs'], project);
    expect(app.code, app.out).toBe(0);
    expect(app.out).toContain('200 {"exists":true,"token_count":2} {"app":"ok"}');
  }, 240_000);

  describe('in a project that installs uas alone', () => {
    let project = '';
    beforeAll(() => {
      project = join(work, 'bare');
      mkdirSync(project);
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'bare', private: true }));
      npm(['install', tarball], project);
    }, 240_000);

    it('installs small for a test suite: neither a terminal UI nor msw comes with it', () => {
      const installed = readdirSync(join(project, 'node_modules'), { recursive: true })
        .map(String)
        .filter((path) => path.endsWith('package.json') && path.split('node_modules').length <= 3);
      const names = new Set(installed.map((path) => path.replace(/[\\/]package\.json$/, '')));
      for (const absent of ['ink', 'react', 'msw', 'express', 'ioredis'])
        expect([...names].some((name) => name === absent || name.endsWith(`/${absent}`))).toBe(
          false,
        );
      // As docs/testing.md says: "A bare install is N packages and M MB".
      const said = /A bare install is (\d+) packages and (\d+) MB/.exec(
        readFileSync(join(ROOT, 'docs/testing.md'), 'utf8'),
      );
      const lock = JSON.parse(
        readFileSync(join(project, 'node_modules', '.package-lock.json'), 'utf8'),
      ) as { packages: Record<string, unknown> };
      const packages = Object.keys(lock.packages).filter((key) => key.startsWith('node_modules/'));
      expect(packages.length).toBe(Number(said?.[1]));
      // Within a megabyte: what the files hold, not the blocks they take on a disk.
      const megabytes = bytesUnder(join(project, 'node_modules')) / 1e6;
      expect(Math.abs(megabytes - Number(said?.[2])), `${megabytes} MB`).toBeLessThan(1);
    });

    it('says in one line that serve --store with a Redis URL needs ioredis, and how to install it', () => {
      const serve = run('npx', ['uas', 'serve', '--store', 'redis://127.0.0.1:1'], project);
      expect(serve.code, serve.out).toBe(2);
      // What uas printed, on stdout and stderr, without what npm itself may warn of.
      const lines = serve.out.split('\n').filter((line) => line !== '' && !/^npm warn/i.test(line));
      expect(lines).toEqual([
        expect.stringMatching(/^uas: .*\bioredis\b.*: npm install --save-dev ioredis@5$/),
      ]);
    }, 60_000);
  });
  describe('installed as README and docs/testing.md say', () => {
    /** The commands of the first sh block after `heading` in a page, comments left out. */
    const commands = (page: string, heading: string): string[][] => {
      const text = readFileSync(join(ROOT, page), 'utf8');
      const block = /```sh\n([\s\S]*?)```/.exec(text.slice(text.indexOf(heading)))?.[1] ?? '';
      return block
        .split('\n')
        .map((line) => line.replace(/\s+#\s.*$/, '').trim())
        .filter(Boolean)
        .map((line) => line.split(/\s+/));
    };

    it('names the tarball npm pack writes, in README and in docs/testing.md', () => {
      const name = basename(tarball);
      expect(name).toBe(
        `uas-${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}.tgz`,
      );
      expect(commands('README.md', 'or its tarball')).toEqual([
        ['npm', 'pack'],
        ['npm', 'install', '-g', `./${name}`],
        ['npm', 'install', '--save-dev', `./${name}`, 'msw'],
        ['npx', '--yes', '--package', `./${name}`, 'uas', 'serve'],
      ]);
      // What the fresh projects above install: the tarball, beside the msw of each.
      expect(commands('docs/testing.md', 'install it from its tarball')).toEqual([
        ['npm', 'install', '--save-dev', `./${name}`, 'msw'],
      ]);
    });

    it('puts uas on PATH with npm install -g, where it serves and checks an integration', async () => {
      const [install] = commands('README.md', 'or its tarball').filter((line) =>
        line.includes('-g'),
      );
      const prefix = join(work, 'global');
      // README's command, run where npm pack wrote the tarball, into a prefix of its own.
      npm([...install!.slice(1), '--prefix', prefix], work);
      const env = { PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}` };
      const version = run('uas', ['--version'], work, env);
      expect(version.out.trim()).toBe(
        JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version,
      );
      await servesAndChecks(['uas'], env);
    }, 240_000);

    it('runs uas once with npx --package and the tarball: it serves and checks an integration', async () => {
      const [, ...npx] = commands('README.md', 'or its tarball').find((line) => line[0] === 'npx')!;
      // README's command without its last word (serve), run where npm pack wrote the tarball,
      // with an npm cache of its own so that nothing installed before is found.
      // No npm_config_yes: README's --yes is what lets it run where nothing answers npx's question.
      const env = { npm_config_cache: join(work, 'npx-cache') };
      await servesAndChecks(['npx', ...npx.slice(0, -1)], env);
    }, 360_000);
  });
});
