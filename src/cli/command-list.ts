import type { Command } from 'commander';

/**
 * A command of uas as `uas --help` lists it. Its full declaration (options, help, action) is
 * in a module of its own under commands/, which load-command.ts loads only when the command line
 * names it: declaring every option of every command was most of what `uas --help` cost.
 */
export interface CommandSummary {
  readonly name: string;
  readonly description: string;
  /** Its arguments: commander's syntax (`<email>`, `[command...]`) and what each is. */
  readonly arguments: ReadonlyArray<readonly [syntax: string, description: string]>;
  /** Whether it takes options of its own (`uas --help` then lists it as `name [options]`). */
  readonly options: boolean;
}

/** Every command, in the order `uas --help` lists them. */
export const COMMANDS = [
  {
    name: 'serve',
    description: 'run the emulator of the three endpoints, with its dev API under /__uas',
    arguments: [],
    options: true,
  },
  {
    name: 'call',
    description:
      'call the service (the local emulator by default) with the retry policy of the spec',
    arguments: [],
    options: false,
  },
  {
    name: 'code',
    description: 'print the latest one-time code an emulator issued for an e-mail',
    arguments: [['<email>', "the user's e-mail"]],
    options: true,
  },
  {
    name: 'check',
    description:
      'tell whether an integration follows the rules of the spec: caller_id per end-user, retries capped with backoff after Retry-After',
    arguments: [['[command...]', 'after --: your integration, run against an emulator uas starts']],
    options: true,
  },
  {
    name: 'simulate',
    description: 'show, with numbers, a shared bucket emptied by a bot against per-caller buckets',
    arguments: [],
    options: true,
  },
  {
    name: 'top',
    description: 'watch the buckets of a running emulator fill and drain (through its dev API)',
    arguments: [],
    options: true,
  },
  {
    name: 'openapi',
    description:
      'print the OpenAPI 3.1 document of the service as `uas serve` would run it with the same config and flags',
    arguments: [],
    options: true,
  },
  {
    name: 'conform',
    description:
      "check a base URL (a uas emulator, or the real service's sandbox) against the contract, black-box, within a request budget",
    arguments: [],
    options: true,
  },
  {
    name: 'doctor',
    description: 'check this machine for uas: versions, the default port, optional pieces',
    arguments: [],
    options: true,
  },
] as const satisfies readonly CommandSummary[];

/** The name of a command of uas. */
export type CommandName = (typeof COMMANDS)[number]['name'];

/**
 * The command a command line runs or asks the help of (`uas serve ...`, `uas help serve`), as
 * commander will find it: its first word that is not an option (uas's own options, -V and -h,
 * take no value), or the word after `help`.
 */
export function commandNamedIn(argv: readonly string[]): CommandName | undefined {
  const words = argv.slice(2);
  const first = words.findIndex((word) => !word.startsWith('-'));
  const name = words[first] === 'help' ? words[first + 1] : words[first];
  return COMMANDS.find((command) => command.name === name)?.name;
}

/** `program.command(name)`, with the description and the arguments of its summary. */
export function declareCommand(program: Command, name: CommandName): Command {
  const summary: CommandSummary = COMMANDS.find((command) => command.name === name)!;
  const command = program.command(name).description(summary.description);
  for (const [syntax, description] of summary.arguments) command.argument(syntax, description);
  return command;
}
