import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const UAS_BIN = fileURLToPath(new URL('../../bin/uas.js', import.meta.url));

/** A running `bin/uas.js`, with its output collected. */
export interface UasProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Starts `node bin/uas.js ...args` as a user would, without colour (in `cwd`, when given). */
export function spawnUas(
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
): UasProcess {
  const child = spawn(process.execPath, [UAS_BIN, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    waiters.forEach((wake) => wake());
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = out.match(pattern);
          if (match) {
            clearTimeout(timer);
            resolve(match);
          }
        };
        const timer = setTimeout(
          () =>
            reject(new Error(`timed out waiting for ${pattern}; stdout: ${out}; stderr: ${err}`)),
          timeoutMs,
        );
        waiters.push(check);
        void exited.then(() =>
          setTimeout(
            () => reject(new Error(`uas exited before ${pattern}; stdout: ${out}; stderr: ${err}`)),
            50,
          ),
        );
        check();
      });
    },
  };
}

/** Runs `bin/uas.js ...args` to completion (in `cwd`, when given). */
export async function runUas(
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const uas = spawnUas(args, env, cwd);
  uas.child.stdin?.end();
  const code = await uas.exited;
  return { code, stdout: uas.stdout(), stderr: uas.stderr() };
}

/** Waits until a `uas serve` process says where it listens (its text or its JSON banner). */
export async function waitForUrl(uas: UasProcess): Promise<string> {
  const match = await uas.waitFor(
    /listening on (http:\/\/127\.0\.0\.1:\d+)|"type":"listening","url":"(http:\/\/127\.0\.0\.1:\d+)"/,
  );
  if (match[1] !== undefined) await uas.waitFor(/\n {2}try /);
  return (match[1] ?? match[2]) as string;
}
