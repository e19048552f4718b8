import type { ResolvedConfig } from '../../core/config/config.js';
import type { colorsFor } from '../colors-for.js';

/**
 * What the emulator does that the real service would not, as the banner states it: fixed codes,
 * added latency, injected 429s, shadow mode. Each changes what a client sees, so none is silent.
 */
export interface BannerBehavior {
  /** `random`, or `fixed` with the one code every sign-in gets. */
  codes: { mode: 'random' } | { mode: 'fixed'; code: string };
  /** Milliseconds added to every answer; null when none. */
  latency_ms: { min: number; max: number } | null;
  /** Probability of a 429 injected at random (0: never). */
  chaos: number;
  /** Whether requests are counted but never refused for an empty bucket (a chaos 429 still is). */
  shadow: boolean;
}

/** The behaviour part of the banner, from the config the emulator runs. */
export function bannerBehavior(config: Pick<ResolvedConfig, 'behavior' | 'otp'>): BannerBehavior {
  const { latency, chaos, shadow } = config.behavior;
  const fixed = config.otp.fixedCode;
  return {
    codes: fixed === undefined ? { mode: 'random' } : { mode: 'fixed', code: fixed },
    latency_ms: latency.maxMs === 0 ? null : { min: latency.minMs, max: latency.maxMs },
    chaos,
    shadow,
  };
}

/** What `uas serve` prints when it listens (as one JSON line with `--log json`). */
export interface Banner extends BannerBehavior {
  type: 'listening';
  url: string;
  engine: string;
  config: string;
  bundled: boolean;
  clients: Array<{ id: string; token: string; merchants: string[] }>;
  limits: { client: string; caller: string };
  store:
    | { kind: 'memory' }
    | {
        kind: 'redis';
        /** Without its password. */
        url: string;
        embedded: boolean;
        prefix: string;
        on_error: string;
        joined: boolean;
      };
  /** Processes answering on the port. */
  workers: number;
  clock: { mode: string; now: string };
  dev_api: string | null;
  /** The dashboard's URL; null when it is off (`--no-ui`, the dev API off, or not built). */
  dashboard: string | null;
  admin_token: boolean;
  /** With `--upstream`: the real service the operations go to, and who decides. */
  upstream?: { url: string; enforce: string };
}

/** The banner of `uas serve` for a person: where it listens, with what, and how to try it. */
export function printBanner(
  banner: Banner,
  write: (line: string) => void,
  chalk: ReturnType<typeof colorsFor>,
): void {
  write(
    `${chalk.bold('uas')} emulator listening on ${chalk.cyan(banner.url)} ${chalk.dim(`(engine ${banner.engine})`)}`,
  );
  write(
    `  config    ${banner.bundled ? `${banner.config} ${chalk.dim('(bundled demo)')}` : banner.config}`,
  );
  for (const client of banner.clients)
    write(
      `  client    ${client.id}: token ${chalk.bold(client.token)}, merchants ${client.merchants.join(', ')}`,
    );
  write(`  limits    client ${banner.limits.client}; caller ${banner.limits.caller}`);
  for (const line of behaviorLines(banner)) write(chalk.yellow(line));
  if (banner.store.kind === 'redis')
    write(
      `  store     Redis at ${banner.store.url}${banner.store.embedded ? ' (started for this server)' : ''}, prefix ${banner.store.prefix}, on error ${banner.store.on_error}${banner.store.joined ? '; joined the live state there' : ''}`,
    );
  if (banner.upstream !== undefined)
    write(
      chalk.yellow(
        `  upstream  ${banner.upstream.url}: the three operations are forwarded there (enforce ${banner.upstream.enforce})`,
      ),
    );
  if (banner.workers > 1) write(`  workers   ${banner.workers} processes on this port`);
  if (banner.clock.mode === 'manual')
    write(
      `  clock     manual, at ${banner.clock.now}: move it with POST ${banner.url}/__uas/clock {"advance_ms": 1000}`,
    );
  if (banner.dev_api !== null)
    write(`  dev API   ${banner.dev_api}${banner.admin_token ? ' (admin token required)' : ''}`);
  else write(chalk.yellow(`  dev API   off: listening beyond loopback without --admin-token`));
  if (banner.dashboard !== null) write(`  dashboard ${chalk.cyan(banner.dashboard)}`);
  write(
    `  try       curl -H 'Authorization: Bearer ${banner.bundled ? banner.clients[0]?.token : '<token>'}' '${banner.url}/v1/users/exists?email=alice@example.com'`,
  );
}

/** One line for each way the emulator departs from the real service (none when it does not). */
export function behaviorLines(behavior: BannerBehavior): string[] {
  const lines: string[] = [];
  if (behavior.codes.mode === 'fixed')
    lines.push(`  codes     fixed: every one-time code is ${behavior.codes.code}`);
  const latency = behavior.latency_ms;
  if (latency !== null)
    lines.push(
      `  latency   ${latency.min === latency.max ? `${latency.max}ms` : `${latency.min}ms-${latency.max}ms`} added to every answer`,
    );
  if (behavior.chaos > 0)
    lines.push(
      `  chaos     429 injected at random on ${Number((behavior.chaos * 100).toFixed(2))}% of requests (no token taken)`,
    );
  if (behavior.shadow)
    lines.push(
      '  shadow    requests are counted, never refused for an empty bucket (UAS-Shadow-Limited: true says which would be)',
    );
  return lines;
}
