import type { SimulationReport } from './simulation-report.js';
import { reportRows, reportHeadline, successShares } from './report-format.js';
import { escapeControls } from '../text/escape-controls.js';

const COLORS = ['#d62728', '#2ca02c', '#ff7f0e', '#9467bd'];

// A scenario file's name or description may hold control characters: written as escapes, as on
// a terminal, so that the page shown with cat obeys none (and holds none, which HTML forbids).
const escape = (text: string) =>
  escapeControls(text, { keepNewlines: false }).replace(
    /[&<>"']/g,
    (char) => `&#${char.charCodeAt(0)};`,
  );

/** A self-contained HTML page of the report: headline, table, verdicts and an SVG chart. */
export function formatHtml(report: SimulationReport): string {
  const { header, body } = reportRows(report);
  const table = [
    '<table>',
    `<thead><tr>${header.map((cell) => `<th>${escape(cell)}</th>`).join('')}</tr></thead>`,
    `<tbody>${body.map((row) => `<tr>${row.map((cell, index) => (index === 0 ? `<th>${escape(cell)}</th>` : `<td>${escape(cell)}</td>`)).join('')}</tr>`).join('')}</tbody>`,
    '</table>',
  ].join('\n');
  const verdicts = report.modes
    .map(
      (mode) =>
        `<li><strong>${escape(mode.mode)}</strong> (${escape(mode.description)}): ${escape(mode.verdict)}</li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Simulation: ${escape(report.scenario.name)}</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #ccc; padding: .3rem .6rem; text-align: left; }
thead th { background: #f4f4f4; }
.muted { color: #666; }
</style>
</head>
<body>
<h1>Simulation: ${escape(report.scenario.name)}</h1>
${reportHeadline(report)
  .map((line) => `<p class="muted">${escape(line)}</p>`)
  .join('\n')}
${table}
<ul>
${verdicts}
</ul>
<h2>Sign-ins that succeeded over time</h2>
${chartSvg(report)}
</body>
</html>
`;
}

function chartSvg(report: SimulationReport): string {
  const width = 720;
  const height = 240;
  const pad = { left: 48, right: 16, top: 12, bottom: 32 };
  const plotWidth = width - pad.left - pad.right;
  const plotHeight = height - pad.top - pad.bottom;
  const bins = report.modes[0]?.timeline.length ?? 0;
  const x = (index: number) => pad.left + (bins <= 1 ? 0 : (index / (bins - 1)) * plotWidth);
  const y = (rate: number) => pad.top + (1 - rate) * plotHeight;
  const shares = report.modes.map(successShares);
  // A mode where no sign-in ended draws no line; the legend says why.
  const lines = report.modes.map((mode, index) => {
    if (shares[index]!.length === 0) return '';
    const points = shares[index]!.map(
      (share, binIndex) => `${x(binIndex).toFixed(1)},${y(share).toFixed(1)}`,
    );
    return `<polyline fill="none" stroke="${COLORS[index % COLORS.length]}" stroke-width="2" points="${points.join(' ')}"><title>${escape(mode.mode)}</title></polyline>`;
  });
  const grid = [0, 0.25, 0.5, 0.75, 1].map(
    (rate) =>
      `<line x1="${pad.left}" x2="${width - pad.right}" y1="${y(rate)}" y2="${y(rate)}" stroke="#eee"/><text x="${pad.left - 6}" y="${y(rate) + 4}" text-anchor="end" font-size="11">${rate * 100}%</text>`,
  );
  const end = report.modes[0]?.timeline.at(-1)?.to_s ?? 0;
  const axis = `<text x="${pad.left}" y="${height - 8}" font-size="11">0 s</text><text x="${width - pad.right}" y="${height - 8}" font-size="11" text-anchor="end">${end} s</text>`;
  const legend = report.modes
    .map(
      (mode, index) =>
        `<tspan fill="${COLORS[index % COLORS.length]}">■ ${escape(mode.mode)}${shares[index]!.length === 0 ? ' (no sign-in ended)' : ''}</tspan>`,
    )
    .join('  ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height + 20}" role="img" aria-label="share of sign-ins that succeeded over time, per mode">
${grid.join('\n')}
${lines.join('\n')}
${axis}
<text x="${pad.left}" y="${height + 14}" font-size="12">${legend}</text>
</svg>`;
}
