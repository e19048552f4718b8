import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Command, CommanderError } from 'commander';
import { registerConform } from '../../src/cli/commands/conform.js';
import type { ConformDeps } from '../../src/cli/conform/run-conform.js';
import { isCliError } from '../../src/cli/io.js';
import type { EmulatorRequest } from '../../src/core/service/exchange.js';
import { createManualClock, type ManualClock } from '../../src/core/time/clock.js';
import { createSeededRandom } from '../../src/core/time/random.js';
import { DEMO_CONFIG } from '../../src/demo-config.js';
import { createEmulator } from '../../src/emulator.js';
import type { Emulator } from '../../src/core/emulator.js';

/** An answer as a drift server writes it. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** How a drift server departs from the emulator it wraps. */
export interface Drift {
  /** Changes a request before the emulator sees it. */
  request?(request: EmulatorRequest): EmulatorRequest;
  /** Never answers the requests it returns true for (until the server closes). */
  stall?(request: EmulatorRequest): boolean;
  /** Changes an answer before it is sent. */
  answer?(answer: RawAnswer, request: EmulatorRequest): RawAnswer;
}

/** A server on 127.0.0.1 that answers as the emulator would, changed by a drift. */
export interface DriftServer {
  url: string;
  clock: ManualClock;
  emulator: Emulator;
  /** Requests it has received. */
  received(): number;
  close(): Promise<void>;
}

async function readRequest(req: IncomingMessage): Promise<EmulatorRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  return {
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    headers: req.headers,
    body: body === '' ? undefined : body,
    bodyBytes: Buffer.byteLength(body),
  };
}

/**
 * Starts a small `node:http` server on port 0 in front of an in-process emulator (the demo
 * config, a manual clock), which a test changes in one respect to see `uas conform` name it.
 */
export async function startDriftServer(
  drift: Drift = {},
  config: unknown = DEMO_CONFIG,
  adminToken?: string,
): Promise<DriftServer> {
  const clock = createManualClock(Date.UTC(2026, 0, 1, 12));
  const emulator = createEmulator({
    ...{ config, clock, random: createSeededRandom(3) },
    devApi: { adminToken },
  });
  let received = 0;
  const server = createServer((req, res) => {
    received++;
    void readRequest(req).then((read) => {
      const request = drift.request?.(read) ?? read;
      if (drift.stall?.(request) === true) return;
      const response = emulator.handle(request);
      const raw: RawAnswer = {
        status: response.status,
        headers: { ...response.headers },
        body: response.text ?? (response.body === undefined ? '' : JSON.stringify(response.body)),
      };
      const answer = drift.answer?.(raw, request) ?? raw;
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    clock,
    emulator,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a run of `uas conform` printed, and its exit code. */
export interface ConformRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `uas conform ...args` in this process, its waits on `clock` (advanced, never slept), with
 * a fixed run id so caller_ids are known. Usage errors end with exit code 2, as in `run()`.
 */
export async function conformInProcess(
  args: string[],
  clock?: ManualClock,
  deps: ConformDeps = {},
): Promise<ConformRun> {
  let stdout = '';
  let stderr = '';
  const context = {
    io: {
      stdout: { write: (text: string) => (stdout += text), columns: 200 },
      stderr: { write: (text: string) => (stderr += text) },
      env: { NO_COLOR: '1' },
      cwd: process.cwd(),
      onSignal: () => () => {},
    },
    exitCode: 0,
    argv: [],
  };
  const program = new Command('uas').exitOverride().configureOutput({
    writeOut: (text) => (stdout += text),
    writeErr: (text) => (stderr += text),
  });
  registerConform(program, context, {
    runId: 'r1',
    ...(clock === undefined
      ? {}
      : { clock: { now: () => clock.now(), sleep: async (ms: number) => clock.advance(ms) } }),
    ...deps,
  });
  try {
    await program.parseAsync(['conform', ...args], { from: 'user' });
    return { code: context.exitCode, stdout, stderr };
  } catch (error) {
    if (error instanceof CommanderError) return { code: 2, stdout, stderr };
    if (!isCliError(error)) throw error;
    return { code: error.exitCode, stdout, stderr: `${stderr}uas: ${error.message}\n` };
  }
}

/** The checks of a `--json` report, by id. */
export function checksOf(
  run: ConformRun,
): Record<
  string,
  { result: string; requests: number; differences: string[]; reason: string | null }
> {
  const report = JSON.parse(run.stdout) as {
    checks: Array<{
      id: string;
      result: string;
      requests: number;
      differences: string[];
      reason: string | null;
    }>;
  };
  return Object.fromEntries(report.checks.map((check) => [check.id, check]));
}
