import type { ChalkInstance } from 'chalk';
import { escapeControls } from '../../text/escape-controls.js';
import type { Diagnosis, OptionalPiece } from './diagnose.js';

function portLine({ port }: Diagnosis): string {
  if (port.free) return `free: uas serve can listen on it`;
  if (port.emulator.answers)
    return `a uas emulator answers there (${port.emulator.version === null ? 'version unknown' : escapeControls(port.emulator.version.slice(0, 64))})`;
  return 'taken by something that is not a uas emulator';
}

function pieceLines(piece: OptionalPiece, color: ChalkInstance): string[] {
  const found = Object.entries(piece.installed)
    .map(([name, version]) => `${name} ${version ?? 'missing'}`)
    .join(', ');
  const mark = piece.ok ? color.green('ok     ') : color.yellow('missing');
  const lines = [`  ${mark}  ${found}: ${piece.for}`];
  if (piece.fix !== null) lines.push(`           fix: ${piece.fix}`);
  return lines;
}

/** What `uas doctor` prints without --json: one line per finding, the fixes beside them. */
export function formatDiagnosis(diagnosis: Diagnosis, color: ChalkInstance): string {
  const { uas, node, port } = diagnosis;
  const lines = [
    `uas      ${uas.version}${uas.standalone ? ' (standalone executable)' : ''}`,
    `Node.js  ${node.version}${node.supported ? '' : color.red(' (too old: 20.19 or later)')}`,
    `port ${port.port}: ${portLine(diagnosis)}`,
    'optional pieces:',
    ...diagnosis.optional.flatMap((piece) => pieceLines(piece, color)),
  ];
  const missing = diagnosis.optional.filter((piece) => !piece.ok).length;
  if (diagnosis.ok)
    lines.push(
      color.green(
        `all is well${missing === 0 ? '' : ` (${missing} optional ${missing === 1 ? 'piece' : 'pieces'} missing: only the commands above need them)`}`,
      ),
    );
  else for (const problem of diagnosis.problems) lines.push(color.red(`problem: ${problem}`));
  return `${lines.join('\n')}\n`;
}
