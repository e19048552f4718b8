import { SingleBar } from 'cli-progress';
import { createClient, type Client } from '../client/client.js';
import { RETRY_DEFAULTS } from '../client/retry-policy.js';
import { createDevApiClient, type DevApiClient } from './dev-api-client.js';
import { isLiveRunError, LiveRunError } from './live-run-error.js';
import { binAt, createModeStats, type ModeStats } from './mode-stats.js';
import { pluralize } from '../text/pluralize.js';
import { buildReport, type SimulationReport } from './report.js';
import type { Mode, Scenario } from './scenario.js';
import { shopperEmail, victimEmail, VICTIMS } from './simulation-config.js';
import { BOT_ADDRESS, generateTraffic, rotatingAddress, shopperAddress } from './traffic.js';
import { TIMELINE_BINS } from './virtual-run.js';

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
  const devApi = createDevApiClient({ base, adminToken: options.adminToken, fetch: options.fetch });
  const traffic = generateTraffic(scenario);
  const emulator = await devApi.isEmulator();
  if (emulator) {
    const emails: string[] = [];
    for (let index = 0; index < traffic.arrivals.length; index++) emails.push(shopperEmail(index));
    for (let index = 0; index < VICTIMS; index++) emails.push(victimEmail(index));
    await devApi.addUsers(emails);
    // The scenario's limits apply to the run, as in virtual time.
    await devApi.configure({ limits: scenario.limits });
  }
  const results: ModeStats[] = [];
  let requests = 0;
  for (const mode of scenario.modes) {
    if (emulator) await devApi.resetBuckets();
    const run = await runLiveMode(scenario, traffic, mode, base, emulator ? devApi : undefined, {
      ...options,
      fetch: options.fetch ?? fetch,
    });
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

async function runLiveMode(
  scenario: Scenario,
  traffic: ReturnType<typeof generateTraffic>,
  mode: Mode,
  base: string,
  devApi: DevApiClient | undefined,
  options: LiveOptions & { fetch: typeof fetch },
): Promise<{ stats: ModeStats; requests: number }> {
  const stats = createModeStats(mode, TIMELINE_BINS);
  const startedAt = Date.now();
  const elapsed = () => Date.now() - startedAt;
  const deadline = startedAt + scenario.durationMs;
  let requests = 0;
  let inFlight = 0;
  let skipped = 0;
  const counting =
    (fetchImpl: typeof fetch): typeof fetch =>
    async (input, init) => {
      requests++;
      inFlight++;
      try {
        return await fetchImpl(input, init);
      } finally {
        inFlight--;
      }
    };
  const client: Client = createClient({
    baseUrl: base,
    token: options.token,
    fetch: counting(options.fetch),
    retry: {
      ...RETRY_DEFAULTS,
      maxAttempts: scenario.retry.maxAttempts,
      maxWaitMs: scenario.retry.maxWaitMs,
    },
    onRetry: (notice) => {
      const bin = binAt(stats, elapsed(), scenario.durationMs);
      bin.requests++;
      if (notice.status === 429) bin.refused++;
      stats.legit.retries++;
      stats.legit.waitedMs += notice.waitMs;
    },
  });
  const bot = createClient({
    baseUrl: base,
    token: options.token,
    fetch: counting(options.fetch),
    retry: false,
  });
  const bar = progressBar(options.progress, mode, scenario.durationMs);

  const end = (
    completed: boolean,
    step: 'exists' | 'start' | 'verify',
    arrival: number,
    status?: number,
  ) => {
    const now = elapsed();
    const bin = binAt(stats, now, scenario.durationMs);
    if (completed) {
      stats.shoppers.completed++;
      stats.flowTimes.push(now - arrival);
      bin.completed++;
    } else {
      stats.shoppers.failed++;
      if (status === 429) stats.shoppers.rateLimited++;
      stats.shoppers.failedAt[step]++;
      bin.failed++;
    }
  };
  const count = (result: {
    status: number | undefined;
    attempts: Array<{ status: number | undefined }>;
  }) => {
    stats.legit.requests += result.attempts.length;
    stats.legit.rejected += result.attempts.filter((attempt) => attempt.status === 429).length;
    // Earlier attempts were counted in their bins as they were retried (onRetry).
    const bin = binAt(stats, elapsed(), scenario.durationMs);
    bin.requests++;
    if (result.status === 429) bin.refused++;
  };

  // The first failure of the dev API: the run stops there and runLive throws it.
  let fatal: LiveRunError | undefined;
  // A pause that ends at the deadline: flows still running then are reported as unfinished.
  const pause = async (ms: number) => {
    await sleep(Math.max(0, Math.min(ms, deadline - Date.now())));
    return Date.now() < deadline && fatal === undefined;
  };

  const shopper = async (index: number) => {
    const arrival = traffic.arrivals[index] as number;
    const [thinkStart, thinkVerify] = traffic.thinks[index] as [number, number];
    const email = shopperEmail(index);
    const callerId =
      mode === 'shared'
        ? undefined
        : mode === 'static'
          ? 'checkout-backend'
          : shopperAddress(index);
    const exists = await client.exists({ email, callerId });
    count(exists);
    if (!exists.ok) return end(false, 'exists', arrival, exists.status);
    if (!(await pause(thinkStart))) return;
    const started = await client.start({ merchantId: options.merchantId, email, callerId });
    count(started);
    if (!started.ok) return end(false, 'start', arrival, started.status);
    if (devApi === undefined) return end(true, 'start', arrival);
    if (!(await pause(thinkVerify))) return;
    const code = await devApi.latestCode(email, options.merchantId);
    if (fatal !== undefined) return;
    const verified = await client.verify({
      merchantId: options.merchantId,
      email,
      code: code ?? '0',
      callerId,
    });
    count(verified);
    end(verified.ok, 'verify', arrival, verified.status);
  };

  const flows: Array<Promise<void>> = [];
  const arrivals = (async () => {
    for (let index = 0; index < traffic.arrivals.length; index++) {
      const wait = (traffic.arrivals[index] as number) - elapsed();
      if (wait > 0) await sleep(wait);
      if (Date.now() >= deadline || fatal !== undefined) break;
      stats.shoppers.arrived++;
      flows.push(
        shopper(index).catch((error: unknown) => {
          fatal ??= isLiveRunError(error)
            ? error
            : new LiveRunError(`the live run failed: ${String(error)}`, 'refused');
        }),
      );
    }
  })();

  const botLoop = (async () => {
    const { bot: spec } = scenario;
    let sent = 0;
    const interval = 1 / spec.perMs;
    const pending: Array<Promise<void>> = [];
    for (;;) {
      const due = spec.startMs + sent * interval;
      if (due >= spec.stopMs || startedAt + due >= deadline || fatal !== undefined) break;
      const wait = due - elapsed();
      if (wait > 0) await sleep(wait);
      bar?.update(Math.min(elapsed(), scenario.durationMs));
      const index = sent++;
      if (inFlight >= options.concurrency) {
        skipped++;
        continue;
      }
      const callerId =
        mode === 'shared'
          ? undefined
          : mode === 'static'
            ? 'checkout-backend'
            : mode === 'rotating'
              ? rotatingAddress(index)
              : BOT_ADDRESS;
      const request =
        spec.target === 'exists'
          ? bot.exists({ email: `probe-${index}@example.net`, callerId })
          : bot.start({ merchantId: options.merchantId, email: victimEmail(index), callerId });
      pending.push(
        request.then((result) => {
          const bin = binAt(stats, elapsed(), scenario.durationMs);
          stats.bot.requests++;
          bin.botRequests++;
          if (result.status === 429) stats.bot.rejected++;
          else if (result.ok) {
            stats.bot.allowed++;
            bin.botAllowed++;
          }
        }),
      );
    }
    await Promise.all(pending);
  })();

  const ticker = setInterval(() => bar?.update(Math.min(elapsed(), scenario.durationMs)), 250);
  await Promise.all([arrivals, botLoop]);
  // Wait out the mode (in short steps, so a failure ends it at once).
  while (fatal === undefined && Date.now() < deadline)
    await sleep(Math.min(100, deadline - Date.now()));
  clearInterval(ticker);
  // Flows still running stop at their next step (see `pause`); wait for their last answers.
  await Promise.all(flows);
  if (fatal === undefined) bar?.update(scenario.durationMs);
  bar?.stop();
  if (fatal !== undefined) throw fatal;
  stats.shoppers.unfinished =
    stats.shoppers.arrived - stats.shoppers.completed - stats.shoppers.failed;
  if (skipped > 0)
    options.progress?.write(
      `${mode}: ${pluralize(skipped, 'bot request')} skipped (more than ${options.concurrency} in flight)\n`,
    );
  return { stats, requests };
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
