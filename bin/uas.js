#!/usr/bin/env node
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/program.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('uas: the build is missing (dist/); run `npm run build` first\n');
  process.exit(2);
}
const { run } = await import(entry.href);
process.exitCode = await run(process.argv);
