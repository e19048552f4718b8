/**
 * What every start of the CLI loads, bundled as one CommonJS file (dist/cli/start.cjs,
 * scripts/bundle.mjs): `run`, and what the modules loaded later share with it, exported from here
 * so that they import it rather than carry copies of their own (one commander, one CliError class
 * in the process). The build fails if a module imports from the start a name this does not
 * export.
 */
export { run } from './program.js';
export * from 'commander';
export * from './command-list.js';
export * from './direct-output.js';
export * from './io.js';
export * from '../version.js';
