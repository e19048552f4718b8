import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { listen } from '../../src/adapters/http/http-server.js';
import { diagnose, type Diagnosis } from '../../src/cli/doctor/diagnose.js';
import { createEmulator } from '../../src/emulator.js';
import { VERSION } from '../../src/version.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A port nothing listens on: taken by a server, which is closed at once. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A server on a port that answers every request with `body` and `status`. */
async function otherServer(status: number, body: string): Promise<number> {
  const server: Server = createServer((_, res) => res.writeHead(status).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return (server.address() as AddressInfo).port;
}

const doctor = async (port: number) => {
  const result = await runCli(['doctor', '--json', '--port', String(port)]);
  return { ...result, found: JSON.parse(result.stdout) as Diagnosis };
};

describe('uas doctor', () => {
  it('says all is well, exit 0, with the versions and a free port', async () => {
    const port = await freePort();
    const { code, found } = await doctor(port);
    expect(code).toBe(0);
    expect(found.ok).toBe(true);
    expect(found.uas).toEqual({ version: VERSION, standalone: false });
    expect(found.node).toEqual({ version: process.version, supported: true });
    expect(found.port).toEqual({ port, free: true, emulator: { answers: false } });
    // This clone installs every optional package (its devDependencies).
    const screen = found.optional.find((piece) => piece.name === 'screen');
    expect(screen?.installed.ink).toMatch(/^6\./);
    expect(screen?.fix).toBeNull();
    const text = await runCli(['doctor', '--port', String(port)]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`uas      ${VERSION}\nNode.js  ${process.version}\n`);
    expect(text.stdout).toContain(`port ${port}: free`);
    expect(text.stdout).toMatch(/\nall is well/);
  });

  it('says an emulator answers on the port, with its version, and all is well', async () => {
    const server = await listen(createEmulator(), 0, '127.0.0.1');
    closers.push(() => server.close(0));
    const { port } = server.server.address() as AddressInfo;
    const { code, found } = await doctor(port);
    expect(code).toBe(0);
    expect(found.port).toEqual({
      port,
      free: false,
      emulator: { answers: true, version: VERSION },
    });
  });

  it('says an emulator whose dev API needs an admin token answers there, version unknown', async () => {
    const server = await listen(
      createEmulator({ devApi: { adminToken: 'doctor-admin-token' } }),
      0,
      '127.0.0.1',
    );
    closers.push(() => server.close(0));
    const { port } = server.server.address() as AddressInfo;
    const { code, found } = await doctor(port);
    expect(code).toBe(0);
    expect(found.port).toEqual({ port, free: false, emulator: { answers: true, version: null } });
    const text = await runCli(['doctor', '--port', String(port)]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`port ${port}: a uas emulator answers there (version unknown)\n`);
  });

  it('exits 1 naming the problem when something that is not uas holds the port', async () => {
    const port = await otherServer(404, '<h1>\u001b[31mnot here</h1>');
    const { code, found } = await doctor(port);
    expect(code).toBe(1);
    expect(found.ok).toBe(false);
    expect(found.port).toEqual({ port, free: false, emulator: { answers: false } });
    const text = await runCli(['doctor', '--port', String(port)]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(
      `problem: port ${port} is taken by something that is not a uas emulator: stop it, or run uas serve --port <another>`,
    );
    expect(text.stdout).not.toContain('\u001b');
  });

  it('exits 1 on a Node.js older than 20.19', async () => {
    const found = await diagnose({
      port: await freePort(),
      env: {},
      from: import.meta.url,
      nodeVersion: 'v20.18.3',
    });
    expect(found.ok).toBe(false);
    expect(found.node.supported).toBe(false);
    expect(found.problems).toEqual([expect.stringMatching(/^Node.js v20.18.3 is older than/)]);
  });

  it("runs README.md's two commands", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /```sh\n(uas doctor[\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const commands = block
      .split('\n')
      .map((line) => line.replace(/\s+#\s.*$/, '').trim())
      .filter(Boolean);
    expect(commands).toEqual(['uas doctor', 'uas doctor --json']);
    // Each on a port of the test's, which nothing else holds.
    const port = String(await freePort());
    for (const command of commands) {
      const result = await runCli([...command.split(' ').slice(1), '--port', port]);
      expect(result.code, result.stdout).toBe(0);
    }
  });

  it('lists each missing optional piece with the one command that installs it', async () => {
    // uas installed in a project with ink alone, whose react package.json is hostile.
    const project = tempDir('uas-doctor-');
    const uas = join(project, 'node_modules/uas/dist/cli');
    mkdirSync(uas, { recursive: true });
    mkdirSync(join(project, 'node_modules/ink'));
    writeFileSync(join(project, 'node_modules/ink/package.json'), '{"version":"6.1.0"}');
    mkdirSync(join(project, 'node_modules/react'));
    writeFileSync(join(project, 'node_modules/react/package.json'), '{"version":"19\u001b[2J"}');
    const found = await diagnose({
      port: await freePort(),
      env: { PATH: project },
      from: pathToFileURL(join(uas, 'program.js')).href,
    });
    expect(found.ok).toBe(true);
    expect(found.optional).toEqual([
      expect.objectContaining({
        name: 'screen',
        installed: { ink: '6.1.0', react: null },
        ok: false,
        fix: 'npm install --save-dev ink@6 react@19',
      }),
      expect.objectContaining({ name: 'msw', ok: false, fix: 'npm install --save-dev msw@2' }),
      expect.objectContaining({ name: 'redis', fix: 'npm install --save-dev ioredis@5' }),
      expect.objectContaining({
        name: 'redis-server',
        installed: { 'redis-server': null },
        fix: expect.stringMatching(/install redis/),
      }),
    ]);
    // Installed globally (npm install -g), the fix installs globally too, under the prefix uas
    // was installed under (a folder of its own here, not npm's default).
    const global = join(project, 'lib/node_modules/uas/dist/cli');
    mkdirSync(global, { recursive: true });
    const globally = await diagnose({
      port: await freePort(),
      env: {},
      from: pathToFileURL(join(global, 'program.js')).href,
    });
    expect(globally.optional[1]?.fix).toBe(`npm install -g --prefix ${project} msw@2`);
  });
});
