#!/usr/bin/env node
// Node's built-ins are taken with process.getBuiltinModule rather than imported: an import of
// node:fs builds every one of its exports, fs.promises and what it loads included, at each start.
const { existsSync } = process.getBuiltinModule('node:fs');
const { enableCompileCache } = process.getBuiltinModule('node:module');
const { fileURLToPath } = process.getBuiltinModule('node:url');

const entry = new URL('../dist/cli/program.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('uas: the build is missing (dist/); run `npm run build` first\n');
  process.exit(2);
}
// Node 22.8 and later keep the code V8 compiled of dist/ for the next start, in the package's
// own node_modules/.cache/uas (docs/performance.md, "CLI start"): a folder only those who can
// change the package's files can write, never one every user of the machine shares. Where it
// cannot be written (a read-only install), uas runs without it; NODE_COMPILE_CACHE and
// NODE_DISABLE_COMPILE_CACHE take precedence.
enableCompileCache?.(fileURLToPath(new URL('../node_modules/.cache/uas/compile', import.meta.url)));
const { run } = await import(entry.href);
process.exitCode = await run(process.argv);
