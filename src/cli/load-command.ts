import type { Command } from 'commander';
import type { CommandContext } from './command-context.js';
import type { CommandName } from './command-list.js';

/** Declares a command in full on the program: its options, help text and action. */
export type RegisterCommand = (program: Command, context: CommandContext) => void;

/** The module that declares each command in full, loaded when the command line names it. */
const LOADERS: Record<CommandName, () => Promise<RegisterCommand>> = {
  serve: async () => (await import('./commands/serve.js')).registerServe,
  call: async () => (await import('./commands/call.js')).registerCall,
  code: async () => (await import('./commands/code.js')).registerCode,
  check: async () => (await import('./commands/check.js')).registerCheck,
  simulate: async () => (await import('./commands/simulate.js')).registerSimulate,
  top: async () => (await import('./commands/top.js')).registerTop,
  openapi: async () => (await import('./commands/openapi.js')).registerOpenApi,
  conform: async () => (await import('./commands/conform.js')).registerConform,
  doctor: async () => (await import('./commands/doctor.js')).registerDoctor,
};

/** Loads the function that declares the command `name` in full. */
export function loadCommand(name: CommandName): Promise<RegisterCommand> {
  return LOADERS[name]();
}
