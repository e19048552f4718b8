import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The fenced blocks of README.md and docs/*.md, each with the HTML comment that says how a test
// checks it (`<!-- test: runner; option; ... -->`) or why none runs it (`<!-- not run: reason -->`).
// The comment is the last thing before the fence, blank lines aside; GitHub shows neither.

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a block's marker asks for. */
export type Marker =
  | { kind: 'test'; runner: string; argument: string; options: string[] }
  | { kind: 'not-run'; reason: string };

/** One fenced block of a page. */
export interface DocBlock {
  /** The page, relative to the repository: `README.md`, `docs/check.md`. */
  page: string;
  /** Line of the opening fence, from 1. */
  line: number;
  /** The first word of the info string: `sh`, `ts`, `json`, or empty. */
  lang: string;
  /** The text between the fences, with a final newline. */
  body: string;
  marker: Marker | undefined;
}

/** README.md and every page under docs/, relative to the repository. */
export const DOC_PAGES: readonly string[] = [
  'README.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

export const readPage = (page: string): string => readFileSync(`${ROOT}${page}`, 'utf8');

/** `test: sh; serve --otp fixed:1; traffic` or `not run: output of ...`, or undefined. */
export function parseMarker(comment: string): Marker | undefined {
  const notRun = /^not run:\s*([\s\S]+)$/.exec(comment);
  if (notRun) return { kind: 'not-run', reason: notRun[1]!.trim() };
  const test = /^test:\s*([\w-]+)\s*([^;]*)((?:;[^;]*)*)$/.exec(comment);
  if (!test) return undefined;
  const options = test[3]!
    .split(';')
    .map((option) => option.trim())
    .filter((option) => option !== '');
  return { kind: 'test', runner: test[1]!, argument: test[2]!.trim(), options };
}

/** The fenced blocks of a page, in order. */
export function pageBlocks(page: string): DocBlock[] {
  const lines = readPage(page).split('\n');
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^`\s]*)/.exec(lines[index]!);
    if (!open) continue;
    const fence = open[2]!;
    const close = lines.findIndex(
      (text, at) => at > index && text.trim().startsWith(fence) && text.trim() === fence,
    );
    if (close === -1) throw new Error(`${page}:${index + 1}: a fence that never closes`);
    blocks.push({
      page,
      line: index + 1,
      lang: open[3]!,
      body: `${lines
        .slice(index + 1, close)
        .map((text) => text.slice(open[1]!.length))
        .join('\n')}\n`,
      marker: markerBefore(lines, index),
    });
    index = close;
  }
  return blocks;
}

/** The marker comment that ends right before line `index`, blank lines aside. */
function markerBefore(lines: readonly string[], index: number): Marker | undefined {
  let end = index - 1;
  while (end >= 0 && lines[end]!.trim() === '') end--;
  if (end < 0 || !lines[end]!.trim().endsWith('-->')) return undefined;
  let start = end;
  while (start >= 0 && !lines[start]!.includes('<!--')) start--;
  if (start < 0) return undefined;
  const comment = lines
    .slice(start, end + 1)
    .join(' ')
    .replace(/^.*<!--/, '')
    .replace(/-->\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return parseMarker(comment);
}

/** Every block of README and docs/. */
export const allBlocks = (): DocBlock[] => DOC_PAGES.flatMap(pageBlocks);

/** The blocks a runner checks. */
export const blocksOf = (runner: string): DocBlock[] =>
  allBlocks().filter((block) => block.marker?.kind === 'test' && block.marker.runner === runner);

/** `docs/check.md:120` */
export const where = (block: DocBlock): string => `${block.page}:${block.line}`;

/** The argument of a block's test marker (empty for a block without one). */
export const argumentOf = (block: DocBlock): string =>
  block.marker?.kind === 'test' ? block.marker.argument : '';

/** The options of a block's test marker. */
export const optionsOf = (block: DocBlock): string[] =>
  block.marker?.kind === 'test' ? block.marker.options : [];
