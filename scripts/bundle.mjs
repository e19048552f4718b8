// The build's JavaScript: esbuild bundles the library entries (uas, uas/msw, uas/express,
// uas/node) and the CLI into a few files of dist/, so that starting `uas` reads a handful of
// modules instead of hundreds. tsc writes the declarations beside them (npm run build).
// Modules a command loads when it runs stay apart (split chunks), and the optional peers
// (ink, React, msw, ioredis, Express) are never bundled: they load from the user's
// node_modules, only in the commands that use them.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
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
 */
export async function bundleCli({ outdir = 'dist', external = PEERS, define = {} } = {}) {
  const result = await build({
    ...common,
    outdir,
    entryPoints: ['src/cli/program.ts'],
    // Every file of the CLI in dist/cli/: the files that ship beside it are two levels up.
    chunkNames: 'cli/[name]-[hash]',
    define: { UAS_PACKAGE_ROOT: '"../../"', ...define },
    external,
    plugins: [lazyChildProcessForCommander],
    // The ES module builds where a package has one (jsonc-parser's UMD build requires its own
    // files at run time, which a bundle does not have).
    mainFields: ['module', 'main'],
    // The CommonJS dependencies bundled here (commander, ajv, ...) require Node's built-ins.
    banner: {
      js: "import { createRequire as __uasCreateRequire } from 'node:module'; const require = __uasCreateRequire(import.meta.url);",
    },
    metafile: true,
  });
  refuseCommonJsChunks(result.metafile);
  return result;
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
