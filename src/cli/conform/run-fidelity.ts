import { resolve } from 'node:path';
import { resolveConfig } from '../../core/config/config.js';
import { describeLosses } from '../../check/recording-loss.js';
import { compareWithService } from '../../conform/fidelity-report.js';
import { formatFidelityText } from '../../conform/format-fidelity-text.js';
import { DEMO_CONFIG } from '../../demo-config.js';
import { readRecording } from '../check/read-recording.js';
import { createLossTally } from '../check/recording-losses.js';
import { CliError, EXIT, type CliIO } from '../io.js';
import { escapeControls, toSafeJson } from '../safe-text.js';

/**
 * `uas conform --journal FILE`: the fidelity report of a recording of `uas serve --upstream`
 * against the emulator's defaults. Exit 0 without a difference, 1 with one, 2 for a recording
 * without a request the real service answered.
 */
export async function runFidelity(file: string, json: boolean, io: CliIO): Promise<number> {
  const path = file === '-' ? '-' : resolve(io.cwd, file);
  const warn = (line: string) => io.stderr.write(`uas: ${escapeControls(line)}\n`);
  const losses = createLossTally();
  // What reading left out (a last line cut short) is said in the report, as its loss lines are.
  const readWarnings: string[] = [];
  const records = await readRecording(
    { path, stdin: io.stdin },
    (line) => readWarnings.push(line),
    losses,
  );
  const report = compareWithService(records, resolveConfig(DEMO_CONFIG));
  if (report.exchanges === 0)
    throw new CliError(
      `${path === '-' ? 'the recording on stdin' : path} holds no request the real service answered: record one with uas serve --upstream <url> --record <file>`,
      EXIT.usage,
    );
  // What the recording lost (its loss lines) was not compared: said in both formats, and on stderr.
  const said = [
    describeLosses(losses.losses)?.replace(/they are not judged$/, 'they are not compared'),
    ...readWarnings,
  ].filter((line) => line !== undefined);
  if (said.length > 0) report.incomplete = said.join('; ');
  io.stdout.write(json ? `${toSafeJson(report)}\n` : escapeControls(formatFidelityText(report)));
  for (const line of said) warn(line);
  return report.differences.length > 0 ? 1 : 0;
}
