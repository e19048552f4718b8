// How output shown in the docs is compared with output a command prints now: what differs from
// run to run (times, the emulator's port) is replaced on both sides.

/** Output with its times, durations and the emulator's address put in a form that never varies. */
export function normalizeOutput(text: string, url: string): string {
  return text
    .replaceAll(url, 'http://127.0.0.1:4010')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
    .replace(/\b\d\d:\d\d:\d\d\.\d{3}\b/g, '<time>')
    .replace(/ over \d+\.\d s/g, ' over <duration>')
    .replace(/[ \t]+$/gm, '')
    .trimEnd();
}

/** Every key path of a JSON value (`a.b`, `list[].c`), sorted; arrays read as their items. */
export function keyPaths(value: unknown, prefix = ''): string[] {
  const paths = new Set<string>();
  const visit = (node: unknown, path: string) => {
    if (Array.isArray(node)) node.forEach((item) => visit(item, `${path}[]`));
    else if (typeof node === 'object' && node !== null)
      for (const [key, child] of Object.entries(node)) {
        const next = path === '' ? key : `${path}.${key}`;
        paths.add(next);
        visit(child, next);
      }
  };
  visit(value, prefix);
  return [...paths].sort();
}
