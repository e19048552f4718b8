// The layers of src/, top to bottom (docs/development.md#layers explains them). A module may
// import from its own layer and from the layers below it, never from one above; no two folders
// import each other, even through others. `npm run lint:layers` checks it.
const LAYERS = [
  ['entry points', '^src/(index|node)\\.ts$'],
  ['cli', '^src/cli/'],
  ['tui', '^src/tui/'],
  ['simulate', '^src/simulate/'],
  ['adapters', '^src/adapters/'],
  ['assembly', '^src/emulator\\.ts$'],
  ['redis store', '^src/store/'],
  ['transport', '^src/transport/'],
  ['conform', '^src/conform/'],
  ['dev client', '^src/dev-client/'],
  ['check', '^src/check/'],
  ['contract', '^src/contract/'],
  ['client', '^src/client/'],
  ['http', '^src/http/'],
  ['text', '^src/text/'],
  ['runtime', '^src/runtime/'],
  ['demo config', '^src/demo-config\\.ts$'],
  ['version', '^src/version\\.ts$'],
  ['core', '^src/core/'],
];

// Inside src/core/: the emulator's assembly, then its parts, top to bottom (layers on one line of
// docs/development.md share a rank: they do not import each other).
const CORE_LAYERS = [
  ['core assembly', '^src/core/[^/]+\\.ts$'],
  ['core admin', '^src/core/admin/'],
  ['core service', '^src/core/service/'],
  ['core store', '^src/core/store/'],
  ['core records', '^src/core/records/'],
  ['core signin', '^src/core/signin/'],
  ['core limits', '^src/core/limits/'],
  ['core config', '^src/core/config/'],
  ['core time', '^src/core/time/'],
  ['core async', '^src/core/async/'],
];

/** One rule per layer: nothing it holds imports a layer above it. */
function upwardRules(layers, family) {
  return layers.slice(1).map(([name, path], index) => ({
    name: `${family}: ${name} imports no layer above it`,
    severity: 'error',
    from: { path },
    to: { path: layers.slice(0, index + 1).map(([, above]) => above) },
  }));
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upwardRules(LAYERS, 'layers'),
    ...upwardRules(CORE_LAYERS, 'core layers'),
    {
      name: 'core imports nothing outside src/core',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'no cycle between folders',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      // A cycle of type imports alone is erased at run time; the four left are each inside one folder
      // (types declared in the module whose functions use them).
      name: 'no cycle between modules at run time',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'every import resolves',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    includeOnly: '^src/',
    exclude: { path: '\\.test\\.tsx?$' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'default'],
      extensions: ['.ts', '.tsx', '.js'],
    },
  },
};
