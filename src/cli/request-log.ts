import type { ChalkInstance } from 'chalk';
import type { EmulatorEvent } from '../core/records/records.js';
import type { OutputStream } from './io.js';
import { escapeControls, toSafeJson } from './safe-text.js';

/** How `uas serve` logs requests and codes. */
export type LogMode = 'pretty' | 'json' | 'off';

const time = (at: number) => new Date(at).toISOString().slice(11, 23);

/** Colours a status: green for success, yellow for 429, red for other errors. */
export function colorStatus(chalk: ChalkInstance, status: number): string {
  if (status < 300) return chalk.green(String(status));
  if (status === 429) return chalk.yellow(String(status));
  return chalk.red(String(status));
}

/** Why an answer relayed from the real service did not reach its client whole, in words. */
const CUT_WORDS = {
  upstream: 'cut short by the real service',
  client: 'client left',
  shutdown: 'cut at shutdown',
} as const;

/** Text from a request or the real service, on one line, its control characters escaped. */
const safe = (text: string) => escapeControls(text, { keepNewlines: false });

/**
 * Formats one event as a log line (without newline); undefined for events not logged. What came
 * from outside (a path, a bucket or problem the real service named behind `--upstream`) is shown
 * with its control characters escaped, so it cannot recolour the terminal or set its title.
 */
export function formatEvent(event: EmulatorEvent, chalk: ChalkInstance): string | undefined {
  switch (event.type) {
    case 'request': {
      const r = event.request;
      const bucket = r.bucket === undefined ? chalk.dim('-') : safe(r.bucket);
      const left = r.remaining === undefined ? '' : chalk.dim(` ${r.remaining} left`);
      const note =
        r.outcome === 'allowed' || r.outcome === 'invalid' ? '' : chalk.dim(` (${r.outcome})`);
      const problem = r.problem === undefined ? '' : chalk.dim(` ${safe(r.problem)}`);
      const cut = r.upstream?.cut === undefined ? '' : chalk.dim(` [${CUT_WORDS[r.upstream.cut]}]`);
      return `${chalk.dim(time(r.at))} ${safe(r.method).padEnd(5)} ${safe(r.path)}  ${bucket}  ${colorStatus(chalk, r.status)}${left}${problem}${note}${cut}`;
    }
    case 'code': {
      const c = event.code;
      return `${chalk.dim(c.issued_at.slice(11, 23))} ${chalk.cyan('code')} ${chalk.bold(c.code)} for ${safe(c.email)} at merchant ${safe(c.merchant_id)} (expires ${c.expires_at})`;
    }
    case 'reset':
      return `${chalk.magenta('reset')} ${event.emulator ? 'the emulator (buckets, codes, journal, users, config, faults, clock)' : (event.bucket ?? 'all buckets')}`;
    case 'config':
      return `${chalk.magenta('config changed')} ${JSON.stringify({ limits: event.limits, behavior: event.behavior, otp: event.otp })}`;
    case 'users':
      return `${chalk.magenta('users changed')} ${event.removed === undefined ? `${event.added} added or replaced` : `${safe(event.removed)} removed, with its codes`}`;
  }
}

/** Creates an event listener that logs to `stream` in the given mode. */
export function createRequestLogger(
  mode: LogMode,
  stream: OutputStream,
  chalk: ChalkInstance,
): ((event: EmulatorEvent) => void) | undefined {
  if (mode === 'off') return undefined;
  // JSON escapes the C0 controls; the C1 ones (CSI, OSC) are escaped too, as in every --json.
  if (mode === 'json') return (event) => stream.write(`${toSafeJson(event)}\n`);
  return (event) => {
    const line = formatEvent(event, chalk);
    if (line !== undefined) stream.write(`${line}\n`);
  };
}
