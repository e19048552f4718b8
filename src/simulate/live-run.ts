import { SingleBar } from 'cli-progress';
import { createClient, type Client } from '../client/client.js';
import type { Operation } from '../core/config/config.js';
import { RETRY_DEFAULTS } from '../client/retry-policy.js';
import { createLiveDevApi, type LiveDevApi } from './live-dev-api.js';
import { isLiveRunError, LiveRunError } from './live-run-error.js';
import {
  countBotAnswer,
  countFlowEnd,
  countRetry,
  countShopperAnswer,
  countUnfinished,
  createModeStats,
  type ModeStats,
} from './mode-stats.js';
import { pluralize } from '../text/pluralize.js';
import { buildReport } from './build-report.js';
import type { SimulationReport } from './simulation-report.js';
import type { Mode, Scenario } from './scenario.js';
import { botDueMs, botRequest, shopperOf, thinkAfter } from './shopper-flow.js';
import { shopperEmail, victimEmail, VICTIMS } from './simulation-config.js';
import { generateTraffic, type Traffic } from './traffic.js';

/** Options of {@link runLive}. */
export interface LiveOptions {
  /** Base URL of the target, such as `http://127.0.0.1:4010`. */
  target: string;
  token: string;
  merchantId: string;
  /** The target's dev API admin token (`uas serve --admin-token`), when it has one. */
  adminToken?: string | undefined;
  /** Most requests in flight at once; bot requests beyond it are skipped (and counted). */
  concurrency: number;
  /** Where the progress bar goes (a terminal), or progress lines (anything else). */
  progress?: { write(text: string): unknown; isTTY?: boolean | undefined } | undefined;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What a report of a run against another server than uas says it could not do. */
export const NOT_AN_EMULATOR =
  "the target has no uas dev API (GET /__uas/health): the scenario's limits were not applied (the target's own are), buckets were not reset between modes, and sign-ins end at start, since codes cannot be read: the report counts those that reached it";

/**
 * Runs a scenario live over HTTP in real time, one mode after another. Against a uas emulator it
 * registers the shoppers as users, applies the scenario's limits, resets the buckets before each
 * mode and reads codes from the dev API; against another server the flows stop after start (the
 * code cannot be read), and the report says so. A dev API that fails ends the run with a
 * {@link LiveRunError}.
 */
export async function runLive(scenario: Scenario, options: LiveOptions): Promise<SimulationReport> {
  const base = options.target.replace(/\/+$/, '');
  const devApi = createLiveDevApi({ base, adminToken: options.adminToken, fetch: options.fetch });
  const traffic = generateTraffic(scenario);
  const emulator = await devApi.isEmulator();
  if (emulator) {
    // Each mode signs in users of its own (see shopperEmail).
    const emails: string[] = [];
    for (const mode of scenario.modes) {
      for (let index = 0; index < traffic.arrivals.length; index++)
        emails.push(shopperEmail(index, mode));
      for (let index = 0; index < VICTIMS; index++) emails.push(victimEmail(index, mode));
    }
    await devApi.addUsers(emails);
    // The scenario's limits apply to the run, as in virtual time.
    await devApi.configure({ limits: scenario.limits });
  }
  const results: ModeStats[] = [];
  let requests = 0;
  for (const mode of scenario.modes) {
    if (emulator) await devApi.resetBuckets();
    const run = await runLiveMode(
      startLiveMode(scenario, traffic, mode, base, emulator ? devApi : undefined, {
        ...options,
        fetch: options.fetch ?? fetch,
      }),
    );
    results.push(run.stats);
    requests += run.requests;
  }
  return buildReport(
    scenario,
    results,
    requests,
    'live',
    emulator
      ? { target: base }
      : { target: base, warnings: [NOT_AN_EMULATOR], flowsEndAt: 'start', limitsApplied: false },
  );
}

/** One mode's live run: its clients, and where it stands. */
interface LiveMode {
  scenario: Scenario;
  traffic: Traffic;
  mode: Mode;
  options: LiveOptions & { fetch: typeof fetch };
  /** The target's dev API; undefined for a server that is not uas (codes cannot be read). */
  devApi: LiveDevApi | undefined;
  stats: ModeStats;
  startedAt: number;
  deadline: number;
  /** Requests sent, and in flight now. */
  requests: number;
  inFlight: number;
  /** Bot requests not sent: more than `concurrency` were in flight. */
  skipped: number;
  /** The first failure of the dev API: the run stops there and runLive throws it. */
  fatal: LiveRunError | undefined;
  client: Client;
  bot: Client;
  bar: SingleBar | undefined;
}

/** Runs one mode live, until its deadline; throws the first failure of the dev API. */
async function runLiveMode(run: LiveMode): Promise<{ stats: ModeStats; requests: number }> {
  const { options, mode } = run;
  const { durationMs } = run.scenario;
  const flows: Array<Promise<void>> = [];
  const ticker = setInterval(() => run.bar?.update(Math.min(elapsed(run), durationMs)), 250);
  await Promise.all([admitShoppers(run, flows), runBot(run)]);
  // Wait out the mode (in short steps, so a failure ends it at once).
  while (run.fatal === undefined && Date.now() < run.deadline)
    await sleep(Math.min(100, run.deadline - Date.now()));
  clearInterval(ticker);
  // Flows still running stop at their next step (see `pause`); wait for their last answers.
  await Promise.all(flows);
  if (run.fatal === undefined) run.bar?.update(durationMs);
  run.bar?.stop();
  if (run.fatal !== undefined) throw run.fatal;
  countUnfinished(run.stats);
  if (run.skipped > 0)
    options.progress?.write(
      `${mode}: ${pluralize(run.skipped, 'bot request')} skipped (more than ${options.concurrency} in flight)\n`,
    );
  return { stats: run.stats, requests: run.requests };
}

/** A mode about to run live: its clients count what they send (and what is in flight). */
function startLiveMode(
  scenario: Scenario,
  traffic: Traffic,
  mode: Mode,
  base: string,
  devApi: LiveDevApi | undefined,
  options: LiveOptions & { fetch: typeof fetch },
): LiveMode {
  const counting: typeof fetch = async (input, init) => {
    run.requests++;
    run.inFlight++;
    try {
      return await options.fetch(input, init);
    } finally {
      run.inFlight--;
    }
  };
  const startedAt = Date.now();
  const run: LiveMode = {
    scenario,
    traffic,
    mode,
    options,
    devApi,
    stats: createModeStats(mode),
    startedAt,
    deadline: startedAt + scenario.durationMs,
    requests: 0,
    inFlight: 0,
    skipped: 0,
    fatal: undefined,
    client: createClient({
      baseUrl: base,
      token: options.token,
      fetch: counting,
      retry: {
        ...RETRY_DEFAULTS,
        maxAttempts: scenario.retry.maxAttempts,
        maxWaitMs: scenario.retry.maxWaitMs,
      },
      // Each attempt is counted in the bin of its answer: those retried here, the last one
      // where the flow reads the result.
      onRetry: (notice) => {
        countShopperAnswer(run.stats, elapsed(run), scenario.durationMs, notice.status === 429);
        countRetry(run.stats, notice.waitMs);
      },
    }),
    bot: createClient({ baseUrl: base, token: options.token, fetch: counting, retry: false }),
    bar: progressBar(options.progress, mode, scenario.durationMs),
  };
  return run;
}

const elapsed = (run: LiveMode) => Date.now() - run.startedAt;

/** A pause that ends at the deadline: false when the flow is to stop there (unfinished). */
async function pause(run: LiveMode, ms: number): Promise<boolean> {
  await sleep(Math.max(0, Math.min(ms, run.deadline - Date.now())));
  return Date.now() < run.deadline && run.fatal === undefined;
}

/** Starts each shopper's flow when it arrives, until the deadline. */
async function admitShoppers(run: LiveMode, flows: Array<Promise<void>>): Promise<void> {
  for (let index = 0; index < run.traffic.arrivals.length; index++) {
    const wait = (run.traffic.arrivals[index] as number) - elapsed(run);
    if (wait > 0) await sleep(wait);
    if (Date.now() >= run.deadline || run.fatal !== undefined) break;
    run.stats.shoppers.arrived++;
    flows.push(
      runShopper(run, index).catch((error: unknown) => {
        run.fatal ??= isLiveRunError(error)
          ? error
          : new LiveRunError(`the live run failed: ${String(error)}`, 'refused');
      }),
    );
  }
}

/** Shopper `index`'s sign-in: exists, think, start, think, read the code, verify. */
async function runShopper(run: LiveMode, index: number): Promise<void> {
  const { client, devApi, options, traffic } = run;
  const { merchantId } = options;
  const { email, callerId } = shopperOf(run.mode, index, true);
  const count = (result: { status: number | undefined }) =>
    countShopperAnswer(run.stats, elapsed(run), run.scenario.durationMs, result.status === 429);
  const end = (step: Operation, result: { ok: boolean; status: number | undefined }) =>
    countFlowEnd(
      run.stats,
      elapsed(run),
      run.scenario.durationMs,
      traffic.arrivals[index] as number,
      result.ok
        ? { completed: true }
        : { completed: false, step, rateLimited: result.status === 429 },
    );
  const exists = await client.exists({ email, callerId });
  count(exists);
  if (!exists.ok) return end('exists', exists);
  if (!(await pause(run, thinkAfter(traffic, index, 0)))) return;
  const started = await client.start({ merchantId, email, callerId });
  count(started);
  if (!started.ok || devApi === undefined) return end('start', started);
  if (!(await pause(run, thinkAfter(traffic, index, 1)))) return;
  const code = await devApi.latestCode(email, merchantId);
  if (run.fatal !== undefined) return;
  const verified = await client.verify({ merchantId, email, code: code ?? '0', callerId });
  count(verified);
  end('verify', verified);
}

/** The bot: its requests at its rate, none retried, skipped beyond `concurrency` in flight. */
async function runBot(run: LiveMode): Promise<void> {
  const { bot: spec, durationMs } = run.scenario;
  const pending: Array<Promise<void>> = [];
  for (let sent = 0; ;) {
    const due = botDueMs(spec, sent);
    if (due >= spec.stopMs || run.startedAt + due >= run.deadline || run.fatal !== undefined) break;
    const wait = due - elapsed(run);
    if (wait > 0) await sleep(wait);
    run.bar?.update(Math.min(elapsed(run), durationMs));
    const index = sent++;
    if (run.inFlight >= run.options.concurrency) {
      run.skipped++;
      continue;
    }
    const { email, callerId } = botRequest(spec, run.mode, index, true);
    const request =
      spec.target === 'exists'
        ? run.bot.exists({ email, callerId })
        : run.bot.start({ merchantId: run.options.merchantId, email, callerId });
    pending.push(
      request.then((result) =>
        countBotAnswer(
          run.stats,
          elapsed(run),
          durationMs,
          result.status === 429 ? 'refused' : result.ok ? 'allowed' : 'other',
        ),
      ),
    );
  }
  await Promise.all(pending);
}

function progressBar(
  stream: LiveOptions['progress'],
  mode: Mode,
  totalMs: number,
): SingleBar | undefined {
  if (stream === undefined) return undefined;
  if (!stream.isTTY) {
    stream.write(`live: running mode ${mode} for ${Math.round(totalMs / 1000)} s\n`);
    return undefined;
  }
  const bar = new SingleBar({
    format: `${mode.padEnd(10)} [{bar}] {percentage}% | {value}/{total} ms`,
    stream: stream as NodeJS.WritableStream,
    hideCursor: true,
    clearOnComplete: false,
  });
  bar.start(totalMs, 0);
  return bar;
}
