import type { colorsFor } from '../io.js';

/** What `uas serve` prints when it listens (as one JSON line with `--log json`). */
export interface Banner {
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
  admin_token: boolean;
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
  if (banner.store.kind === 'redis')
    write(
      `  store     Redis at ${banner.store.url}${banner.store.embedded ? ' (started for this server)' : ''}, prefix ${banner.store.prefix}, on error ${banner.store.on_error}${banner.store.joined ? '; joined the live state there' : ''}`,
    );
  if (banner.workers > 1) write(`  workers   ${banner.workers} processes on this port`);
  if (banner.clock.mode === 'manual')
    write(
      `  clock     manual, at ${banner.clock.now}: move it with POST ${banner.url}/__uas/clock {"advance_ms": 1000}`,
    );
  if (banner.dev_api !== null)
    write(`  dev API   ${banner.dev_api}${banner.admin_token ? ' (admin token required)' : ''}`);
  else write(chalk.yellow(`  dev API   off: listening beyond loopback without --admin-token`));
  write(
    `  try       curl -H 'Authorization: Bearer ${banner.bundled ? banner.clients[0]?.token : '<token>'}' '${banner.url}/v1/users/exists?email=alice@example.com'`,
  );
}
