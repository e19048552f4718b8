import { posix } from 'node:path';

// Links between the pages of README and docs/, and the anchors GitHub gives their headings.

/**
 * The anchor GitHub gives a heading (github-slugger's rule): lower case, every character that is
 * not a letter, a mark, a digit, `_`, `-` or a space dropped, each space made `-`.
 */
export function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page's headings; a repeated one gets `-1`, `-2` as on GitHub. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const outsideFences = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '');
  for (const [, text] of outsideFences.matchAll(/^#{1,6} +(.+?)\s*#*$/gm)) {
    const base = slug(text!.replace(/`/g, ''));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The targets of the page's Markdown links (`[text](target)`), outside code. */
export function linksOf(markdown: string): string[] {
  const prose = markdown
    .replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => target!);
}

/**
 * Where a link of `page` leads, relative to the repository: undefined for a link off the
 * repository (`https:`, `mailto:`).
 */
export function resolveLink(
  page: string,
  link: string,
): { file: string; anchor: string | undefined } | undefined {
  if (/^[a-z]+:/i.test(link)) return undefined;
  const [path = '', anchor] = link.split('#');
  const file = path === '' ? page : posix.normalize(posix.join(posix.dirname(page), path));
  return { file: file.replace(/\/$/, ''), anchor };
}
