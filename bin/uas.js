#!/usr/bin/env node
// CommonJS (bin/package.json): Node.js starts a CommonJS main script and require()s the CLI's
// start (dist/cli/start.cjs, one file) faster than it loads ES modules; the commands' modules
// are ES modules the start imports when a command runs (docs/performance.md, "CLI start").
'use strict';
const { existsSync } = require('node:fs');
const { enableCompileCache } = require('node:module');
const { join } = require('node:path');

const entry = join(__dirname, '../dist/cli/start.cjs');
if (!existsSync(entry)) {
  // A fresh clone has neither dist/ nor the dependencies that build it (tsc, esbuild).
  const build = existsSync(join(__dirname, '../node_modules'))
    ? 'npm run build'
    : 'npm install && npm run build';
  process.stderr.write(`uas: the build is missing (dist/); run \`${build}\` first\n`);
  process.exit(2);
}
// Node 22.8 and later keep the code V8 compiled of dist/ for the next start, in the package's
// own node_modules/.cache/uas (docs/performance.md, "CLI start"): a folder only those who can
// change the package's files can write, never one every user of the machine shares. Where it
// cannot be written (a read-only install), uas runs without it; NODE_COMPILE_CACHE and
// NODE_DISABLE_COMPILE_CACHE take precedence.
enableCompileCache?.(join(__dirname, '../node_modules/.cache/uas/compile'));
let start;
try {
  start = require(entry);
  if (typeof start.run !== 'function') throw new TypeError('it exports no run function');
} catch (error) {
  // A start.cjs a build left half-written, or a copy damaged since: what and where, not a stack.
  const what = String(error).split('\n')[0];
  process.stderr.write(
    `uas: this copy of uas is damaged (${entry}: ${what}): install it again, or run \`npm run build\` in its clone\n`,
  );
  process.exit(2);
}
start.run(process.argv).then((code) => {
  process.exitCode = code;
});
