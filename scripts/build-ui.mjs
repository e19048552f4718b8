// Builds the web dashboard (src/ui/) into dist/ui/: one hashed script and stylesheet under
// assets/, and index.html naming them (no inline script or style: the page's CSP forbids both).
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'ui');
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });

const result = await build({
  entryPoints: { app: join(root, 'src/ui/main.tsx') },
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  entryNames: '[name]-[hash]',
  outdir: join(out, 'assets'),
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file));
const script = outputs.find((file) => file.endsWith('.js'));
const style = outputs.find((file) => file.endsWith('.css'));
if (script === undefined || style === undefined)
  throw new Error('the dashboard build made no script or stylesheet');
const template = readFileSync(join(root, 'src/ui/index.html'), 'utf8');
writeFileSync(
  join(out, 'index.html'),
  template.replace('%SCRIPT%', `assets/${script}`).replace('%STYLE%', `assets/${style}`),
);
writeFileSync(join(out, 'assets', 'favicon.svg'), readFileSync(join(root, 'src/ui/favicon.svg')));

let total = 0;
for (const file of ['index.html', `assets/${script}`, `assets/${style}`, 'assets/favicon.svg'])
  total += gzipSync(readFileSync(join(out, file)), { level: 9 }).byteLength;
if (process.argv.includes('--report'))
  console.log(`dashboard: ${(total / 1024).toFixed(1)} KB gzip in all (budget 150 KB)`);
if (total > 150 * 1024)
  throw new Error(`the dashboard is ${total} bytes gzip, over its 150 KB budget`);
