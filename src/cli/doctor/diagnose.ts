import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { escapeControls } from '../../text/escape-controls.js';
import { VERSION } from '../../version.js';
import { installCommand, OPTIONAL } from '../optional-import.js';
import { STANDALONE } from '../standalone.js';
import { installedVersion } from './installed-package.js';
import { portStatus, type PortStatus } from './port-status.js';

/** The oldest Node.js uas supports. */
export const MIN_NODE = [20, 19] as const;

/** An optional piece: what it serves, whether it is here, the one command that installs it. */
export interface OptionalPiece {
  name: string;
  for: string;
  /** Each package (or program) of the piece, and its version or where it is; null: missing. */
  installed: Record<string, string | null>;
  ok: boolean;
  fix: string | null;
}

/** Everything `uas doctor` found. */
export interface Diagnosis {
  ok: boolean;
  uas: { version: string; standalone: boolean };
  node: { version: string; supported: boolean };
  port: PortStatus;
  optional: OptionalPiece[];
  /** What stops uas from working here, one line each. */
  problems: string[];
}

const USES = {
  screen: 'uas top, uas serve --tui, uas simulate --watch',
  msw: 'uas serve --engine msw and --handlers',
  redis: 'uas serve --store redis://...',
} as const;

/** The optional npm packages: inside the standalone executable, or where uas's imports look. */
function packagePieces(from: string): OptionalPiece[] {
  return (Object.keys(OPTIONAL) as (keyof typeof OPTIONAL)[]).map((name) => {
    const { packages } = OPTIONAL[name];
    const installed = Object.fromEntries(
      packages.map((pkg) => [
        pkg,
        (STANDALONE ? STANDALONE.packages[pkg] : installedVersion(pkg, from)) ?? null,
      ]),
    );
    const ok = Object.values(installed).every((version) => version !== null);
    return { name, for: USES[name], installed, ok, fix: ok ? null : installCommand(name, from) };
  });
}

/** Where `program` is on PATH, or null. */
function onPath(program: string, env: Readonly<Record<string, string | undefined>>): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const file = join(dir, program);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not in this folder.
    }
  }
  return null;
}

/** redis-server, which `uas serve --store redis` (without a URL) starts. */
function redisServerPiece(env: Readonly<Record<string, string | undefined>>): OptionalPiece {
  const where = onPath('redis-server', env);
  return {
    name: 'redis-server',
    for: 'uas serve --store redis (a Redis of its own, without a URL)',
    installed: { 'redis-server': where === null ? null : escapeControls(where) },
    ok: where !== null,
    fix:
      where !== null
        ? null
        : process.platform === 'darwin'
          ? 'brew install redis'
          : 'sudo apt-get install redis-server',
  };
}

/**
 * Looks at this machine as uas would use it: its Node.js, the port `uas serve` takes and what
 * answers there, and which optional pieces are installed. `from` is where uas's imports resolve.
 */
export async function diagnose(options: {
  port: number;
  env: Readonly<Record<string, string | undefined>>;
  from: string;
  nodeVersion?: string;
}): Promise<Diagnosis> {
  const nodeVersion = options.nodeVersion ?? process.version;
  const [major = 0, minor = 0] = nodeVersion.replace(/^v/, '').split('.').map(Number);
  const supported = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  const port = await portStatus(options.port);
  const problems: string[] = [];
  if (!supported)
    problems.push(
      `Node.js ${nodeVersion} is older than uas needs (${MIN_NODE.join('.')} or later): install a current Node.js from https://nodejs.org`,
    );
  if (!port.free && !port.emulator.answers)
    problems.push(
      `port ${port.port} is taken by something that is not a uas emulator: stop it, or run uas serve --port <another>`,
    );
  return {
    ok: problems.length === 0,
    uas: { version: VERSION, standalone: STANDALONE !== undefined },
    node: { version: nodeVersion, supported },
    port,
    optional: [...packagePieces(options.from), redisServerPiece(options.env)],
    problems,
  };
}
