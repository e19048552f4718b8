import { isClockTime } from '../../core/time/clock.js';
import { CliError, EXIT } from '../io.js';
import { checkServeAdminToken } from '../options.js';
import { refuseRecordName } from '../record-open-error.js';
import type { ServeFlags } from './serve-flags.js';

/**
 * Refuses flags of `uas serve` that cannot work together (exit 2), before anything is opened:
 * `config` is the config file as read, whose `store` the store flags may apply to.
 */
export function checkServeFlags(flags: ServeFlags, config: Record<string, unknown>): void {
  if (flags.storePrefix !== undefined || flags.onStoreError !== undefined) {
    const storeFlag = flags.storePrefix !== undefined ? '--store-prefix' : '--on-store-error';
    const fileStore = config.store as { url?: unknown } | undefined;
    const url = flags.store ?? fileStore?.url;
    if (url === undefined || url === 'memory')
      throw new CliError(
        `${storeFlag} applies to a Redis store: add --store redis (a local redis-server started for it) or --store redis://host:6379`,
        EXIT.usage,
      );
  }
  if (flags.recordBuffer !== undefined && flags.record === undefined)
    throw new CliError('--record-buffer goes with --record <file>', EXIT.usage);
  if (flags.record !== undefined) refuseRecordName(flags.record);
  if (flags.handlers !== undefined && flags.engine !== 'msw')
    throw new CliError('--handlers needs --engine msw', EXIT.usage);
  if (flags.adminToken !== undefined) checkServeAdminToken(flags.adminToken, '--admin-token');
  if (flags.clockStart !== undefined && flags.clock !== 'manual')
    throw new CliError('--clock-start needs --clock manual', EXIT.usage);
  if (flags.clockStart !== undefined && !isClockTime(flags.clockStart))
    throw new CliError(
      'invalid --clock-start: expected a time in the years 0000 to 9999',
      EXIT.usage,
    );
  checkUpstreamFlags(flags, config);
  if (flags.workers > 1 && flags.tui)
    throw new CliError('--tui shows one process; it cannot run with --workers', EXIT.usage);
}

/**
 * `--enforce`, `--upstream-ca` and `--upstream-timeout` go with `--upstream`, on the fast engine;
 * chaos and latency (flags or config) are the emulator's own and do not apply in front of the
 * real service.
 */
function checkUpstreamFlags(flags: ServeFlags, config: Record<string, unknown>): void {
  const needing = [
    flags.enforce !== undefined && '--enforce',
    flags.upstreamCa !== undefined && '--upstream-ca',
    flags.upstreamTimeout !== undefined && '--upstream-timeout',
  ].find((flag) => flag !== false);
  if (flags.upstream === undefined) {
    if (needing !== undefined) throw new CliError(`${needing} needs --upstream <url>`, EXIT.usage);
    return;
  }
  if (flags.engine === 'msw')
    throw new CliError('--upstream forwards on the fast engine; drop --engine msw', EXIT.usage);
  if (flags.upstreamCa !== undefined && !flags.upstream.startsWith('https:'))
    throw new CliError('--upstream-ca needs an https --upstream', EXIT.usage);
  if (isOwnAddress(flags.upstream, flags.host, flags.port))
    throw new CliError(
      `--upstream ${flags.upstream} is the address uas listens on: it would forward to itself`,
      EXIT.usage,
    );
  // A flag overrides the file, as everywhere: `--chaos 0` or `--latency 0ms` turns off what the
  // config's behavior sets, where any other value is refused as the config's is.
  const behavior = (config.behavior ?? {}) as { chaos?: unknown; latency?: unknown };
  const chaos = flags.chaos ?? behavior.chaos;
  const latency = flags.latency ?? behavior.latency;
  const on =
    chaos !== undefined && chaos !== 0 ? 'chaos' : isLatency(latency) ? 'latency' : undefined;
  if (on === undefined) return;
  if (flags[on] !== undefined)
    throw new CliError(
      `--${on} does not apply with --upstream: the real service answers; drop it`,
      EXIT.usage,
    );
  throw new CliError(
    `the config's behavior.${on} does not apply with --upstream: the real service answers; remove it, or give --${on} 0`,
    EXIT.usage,
  );
}

/** Whether a latency (a flag's text, or a config's value) adds any: not absent, 0 or `0ms`. */
function isLatency(value: unknown): boolean {
  if (value === undefined || value === 0) return false;
  return !(typeof value === 'string' && /^\s*0+(?:\.0*)?\s*(?:ms|s)?\s*$/.test(value));
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0', '[::]']);

/** Whether `upstream` is the address `host:port` uas is to listen on (a loopback name for any). */
function isOwnAddress(upstream: string, host: string, port: number): boolean {
  const url = new URL(upstream);
  const upstreamPort = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (port === 0 || upstreamPort !== port) return false;
  const listening = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return url.hostname === listening || (LOOPBACK.has(url.hostname) && LOOPBACK.has(listening));
}
