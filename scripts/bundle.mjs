// The build's JavaScript: esbuild bundles the library entries (uas, uas/msw, uas/express,
// uas/node) and the CLI into a few files of dist/, so that starting `uas` reads a handful of
// modules instead of hundreds. tsc writes the declarations beside them (npm run build).
// Modules a command loads when it runs stay apart (split chunks), and the optional peers
// (ink, React, msw, ioredis, Express) are never bundled: they load from the user's
// node_modules, only in the commands that use them.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
const PEERS = Object.keys(manifest.peerDependencies);

const common = {
  absWorkingDir: ROOT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  outbase: 'src',
  outdir: 'dist',
  jsx: 'automatic',
  legalComments: 'none',
  logLevel: 'warning',
};

/**
 * commander requires node:child_process when it loads, to spawn the executable subcommands uas
 * has none of; loading it loads net, dgram and more at every start. In the CLI's bundle,
 * commander gets a stand-in that requires node:child_process when it first uses it.
 */
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    build.onResolve({ filter: /^node:child_process$/ }, ({ importer }) =>
      importer.includes('/node_modules/commander/')
        ? { path: 'child-process-on-first-use', namespace: 'uas-lazy' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'uas-lazy' }, () => ({
      contents:
        "module.exports = new Proxy({}, { get: (_, name) => require('node:child_process')[name] });",
      loader: 'js',
    }));
  },
};

/**
 * Builds the CLI into `outdir`/cli/, with `external` left out of it; `define` adds to what the
 * bundle replaces (the standalone executable's build says it is one).
 *
 * Two parts. `cli/start.cjs` is what every start loads (src/cli/start.ts): the program, the list
 * of commands, the I/O and exit codes, the version and commander, in one CommonJS file, which
 * Node.js 20 loads faster than the same code as ES modules (it resolves and reads those one by
 * one, asynchronously). The rest is ES modules split in chunks, with an entry for each module the
 * start loads with import() (each command's declaration, the escaping of an error). What they
 * share with the start they take from `./start.cjs` (sharedFromStart): one commander, one
 * CliError class and one set of exit codes in the process.
 */
export async function bundleCli({ outdir = 'dist', external = PEERS, define = {} } = {}) {
  const options = { define: { UAS_PACKAGE_ROOT: '"../../"', ...define }, external };
  const lazy = new Map();
  const start = await build({
    ...common,
    ...options,
    splitting: false,
    format: 'cjs',
    outdir: undefined,
    outfile: `${outdir}/cli/start.cjs`,
    entryPoints: ['src/cli/start.ts'],
    plugins: [lazyChildProcessForCommander, lazyImportsApart(lazy)],
    mainFields: ['module', 'main'],
    // Comments are most of commander's bytes, which every start would parse.
    minifyWhitespace: true,
    metafile: true,
  });
  const shared = new Set(Object.keys(start.metafile.inputs).map((input) => resolve(ROOT, input)));
  const result = await build({
    ...common,
    ...options,
    outdir,
    entryPoints: [...lazy].map(([name, file]) => ({ in: file, out: `cli/${name}` })),
    // Every file of the CLI in dist/cli/: the files that ship beside it are two levels up.
    chunkNames: 'cli/[name]-[hash]',
    plugins: [sharedFromStart(shared, resolve(ROOT, outdir, 'cli/start.cjs'))],
    // The ES module builds where a package has one (jsonc-parser's UMD build requires its own
    // files at run time, which a bundle does not have).
    mainFields: ['module', 'main'],
    // The CommonJS dependencies bundled here (ajv, ...) require Node's built-ins.
    banner: {
      js: "import { createRequire as __uasCreateRequire } from 'node:module'; const require = __uasCreateRequire(import.meta.url);",
    },
    metafile: true,
  });
  refuseCommonJsChunks(result.metafile);
  return result;
}

/** What a plugin's own build.resolve() passes, so that it does not call itself again. */
const OWN = Symbol('own resolution');

/** The resolved file of an import, or undefined (a built-in, an external, a failure). */
async function fileOf(build, args) {
  if (args.pluginData === OWN || args.kind === 'entry-point' || args.path.startsWith('node:'))
    return undefined;
  const { path, external, errors } = await build.resolve(args.path, {
    kind: args.kind,
    importer: args.importer,
    resolveDir: args.resolveDir,
    pluginData: OWN,
  });
  return external || errors.length > 0 || path === '' ? undefined : path;
}

/**
 * In the start's build, each import() stays out of it: it becomes an entry of the ES module
 * part, `./<name>.js` beside start.cjs, recorded in `lazy` (name to source file).
 */
function lazyImportsApart(lazy) {
  return {
    name: 'lazy-imports-apart',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const file = await fileOf(build, args);
        if (file === undefined) return undefined;
        const name = basename(file).replace(/\.[cm]?[jt]sx?$/, '');
        if (lazy.has(name) && lazy.get(name) !== file)
          throw new Error(`two modules the CLI loads lazily are named ${name}: rename one`);
        lazy.set(name, file);
        return { path: `./${name}.js`, external: true };
      });
    },
  };
}

/**
 * In the ES module part, a module the start holds is taken from it, never bundled again: through
 * the chunks' require() (an ES module import of a CommonJS file costs Node.js 20 a scan of its
 * source), as one module that names every export of the start, so that importing a name it does
 * not export fails the build.
 */
function sharedFromStart(shared, startFile) {
  const names = Object.keys(createRequire(import.meta.url)(startFile));
  return {
    name: 'shared-from-start',
    setup(build) {
      build.onResolve({ filter: /^\.\/start\.cjs$/, namespace: 'uas-start' }, () => ({
        path: './start.cjs',
        external: true,
      }));
      build.onResolve({ filter: /.*/ }, async (args) => {
        const file = await fileOf(build, args);
        return file !== undefined && shared.has(file)
          ? { path: 'start.cjs', namespace: 'uas-start' }
          : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'uas-start' }, () => ({
        contents: `export const { ${names.join(', ')} } = require('./start.cjs');`,
        loader: 'js',
      }));
    },
  };
}

/** Packages whose import() the code reads through their default export (redis-connection.ts). */
const DEFAULT_ONLY = ['node_modules/ioredis/'];

/**
 * A CommonJS package loaded with import() becomes a chunk of its own whose only export is
 * `default` (its module.exports): `const { name } = await import(pkg)` finds nothing there, as
 * it would in Node. Such a chunk fails the build, unless the code reads that package's default.
 */
function refuseCommonJsChunks(metafile) {
  const found = Object.entries(metafile.outputs)
    .filter(([, output]) => output.entryPoint?.includes('node_modules/'))
    .filter(([, output]) => output.exports.length === 1 && output.exports[0] === 'default')
    .map(([, output]) => output.entryPoint)
    .filter((entry) => !DEFAULT_ONLY.some((allowed) => entry.includes(allowed)));
  if (found.length > 0)
    throw new Error(
      `import() of CommonJS packages, whose named exports a bundle loses: ${found.join(', ')}; import them statically in a module that is itself loaded lazily`,
    );
}

/** The library entries: uas's own modules bundled, its dependencies imported as installed. */
function bundleLibrary() {
  return build({
    ...common,
    entryPoints: [
      'src/index.ts',
      'src/node.ts',
      'src/adapters/msw/index.ts',
      'src/adapters/express/index.ts',
    ],
    chunkNames: 'chunks/[name]-[hash]',
    packages: 'external',
  });
}

/** Modules the benchmarks (bench/) drive directly, in dist/internal/, which does not ship. */
function bundleInternals() {
  return build({
    ...common,
    outdir: 'dist/internal',
    entryPoints: [
      'src/emulator.ts',
      'src/store/redis/embedded-redis.ts',
      'src/simulate/scenario.ts',
      'src/simulate/traffic.ts',
      'src/simulate/virtual-run.ts',
      'src/core/limits/token-bucket.ts',
      'src/transport/core-answer.ts',
      'src/transport/http-transport.ts',
    ],
    chunkNames: 'chunks/[name]-[hash]',
    packages: 'external',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await Promise.all([bundleCli(), bundleLibrary(), bundleInternals()]);
}
