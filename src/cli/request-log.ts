import type { ChalkInstance } from 'chalk';
import type { EmulatorEvent } from '../core/records/records.js';
import type { OutputStream } from './io.js';

/** How `uas serve` logs requests and codes. */
export type LogMode = 'pretty' | 'json' | 'off';

const time = (at: number) => new Date(at).toISOString().slice(11, 23);

/** Colours a status: green for success, yellow for 429, red for other errors. */
export function colorStatus(chalk: ChalkInstance, status: number): string {
  if (status < 300) return chalk.green(String(status));
  if (status === 429) return chalk.yellow(String(status));
  return chalk.red(String(status));
}

/** Formats one event as a log line (without newline); undefined for events not logged. */
export function formatEvent(event: EmulatorEvent, chalk: ChalkInstance): string | undefined {
  switch (event.type) {
    case 'request': {
      const r = event.request;
      const bucket = r.bucket === undefined ? chalk.dim('-') : r.bucket;
      const left = r.remaining === undefined ? '' : chalk.dim(` ${r.remaining} left`);
      const note =
        r.outcome === 'allowed' || r.outcome === 'invalid' ? '' : chalk.dim(` (${r.outcome})`);
      const problem = r.problem === undefined ? '' : chalk.dim(` ${r.problem}`);
      return `${chalk.dim(time(r.at))} ${r.method.padEnd(5)} ${r.path}  ${bucket}  ${colorStatus(chalk, r.status)}${left}${problem}${note}`;
    }
    case 'code': {
      const c = event.code;
      return `${chalk.dim(c.issued_at.slice(11, 23))} ${chalk.cyan('code')} ${chalk.bold(c.code)} for ${c.email} at merchant ${c.merchant_id} (expires ${c.expires_at})`;
    }
    case 'reset':
      return `${chalk.magenta('reset')} ${event.emulator ? 'the emulator (buckets, codes, journal, users, config, faults, clock)' : (event.bucket ?? 'all buckets')}`;
    case 'config':
      return `${chalk.magenta('config changed')} ${JSON.stringify({ limits: event.limits, behavior: event.behavior, otp: event.otp })}`;
  }
}

/** Creates an event listener that logs to `stream` in the given mode. */
export function createRequestLogger(
  mode: LogMode,
  stream: OutputStream,
  chalk: ChalkInstance,
): ((event: EmulatorEvent) => void) | undefined {
  if (mode === 'off') return undefined;
  if (mode === 'json') return (event) => stream.write(`${JSON.stringify(event)}\n`);
  return (event) => {
    const line = formatEvent(event, chalk);
    if (line !== undefined) stream.write(`${line}\n`);
  };
}
