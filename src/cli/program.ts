import { Command, CommanderError, Option } from 'commander';
import { VERSION } from '../version.js';
import type { CommandContext } from './command-context.js';
import { COMMANDS, commandNamedIn, declareCommand } from './command-list.js';
import { EXIT, isCliError, processIO, type CliIO } from './io.js';
import { loadCommand } from './load-command.js';

/**
 * Builds the `uas` program over the given I/O. Only the command its command line names (or asks
 * the help of) is declared in full; the others are their summaries, enough for `uas --help`, a
 * suggestion for a mistyped name and the list of commands. Commands load their heavy modules
 * lazily.
 */
export async function createProgram(context: CommandContext): Promise<Command> {
  const named = commandNamedIn(context.argv);
  const register = named === undefined ? undefined : await loadCommand(named);
  const { io } = context;
  const program = new Command('uas')
    .description('Local emulator and developer CLI for the rate-limited user-access API')
    // -V and --version, before any command only: `uas call start -v` is that command's own flag
    // (verbose), never the version.
    .version(VERSION, '-V, --version')
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => (io.helpOut ?? io.stdout).write(text),
      // Read from the output help goes to, so that no stream is made for a file or a pipe.
      getOutHelpWidth: () => {
        const out = io.helpOut ?? io.stdout;
        // commander's own width when it cannot tell one.
        return (out.isTTY === true ? out.columns : undefined) ?? 80;
      },
      getOutHasColors: () => (io.helpOut ?? io.stdout).isTTY === true,
      // Only help shown for a mistake (a command group without its command) comes here: `run`
      // says what is missing in one line instead.
      writeErr: (text) => {
        context.errorHelp = (context.errorHelp ?? '') + text;
      },
      // One line per error, suggestions included ("unknown option '--mail' (Did you mean
      // --email?)"), starting with "uas:" as every other error does. The credentials of a URL
      // it quotes (`http://user:password@host`) are redacted, and the control characters of the
      // command line it repeats escaped (by `run`, which loads the escaping only for an error).
      outputError: (text) => {
        context.errorLine = text
          .trim()
          .replace(/^error:\s*/, 'uas: ')
          .replace(/\s*\n\s*/g, ' ')
          .replace(/(\/\/)[^\s/?#'"]+@/g, '$1***@')
          // An argument it quotes, at most 100 characters of it.
          .replace(/'([^']{100})[^']+'/g, "'$1…'");
      },
    });
  // The process's stderr is taken when a command runs (help and the version need none): its
  // wrapper then listens for the stream's errors before anything, Node's warnings included,
  // writes to it.
  program.hook('preAction', () => {
    void io.stderr;
  });
  program.on('beforeAllHelp', (event: { error: boolean; command: Command }) => {
    if (event.error) context.errorHelpOf = event.command;
  });
  program.addHelpText(
    'after',
    `
Examples:
  $ uas serve                                   run the emulator on http://127.0.0.1:4010
  $ uas call flow --email alice@example.com     sign in against it, step by step
  $ uas check -- node my-test.mjs               does your integration follow the spec's rules?
  $ uas simulate --preset user-enumeration      shared bucket against per-caller buckets
  $ uas top                                     watch its buckets live
  $ uas code alice@example.com                  the latest one-time code it issued
  $ uas serve --workers 2 --store redis         two processes on one port, one shared state
  $ uas openapi --yaml > uas.yaml               the contract, as a file
  $ uas conform --url "$SANDBOX" --token "$T"   does that server behave like the contract?
  $ uas doctor                                  versions, the port, what optional pieces lack

Exit codes: 0 success, 1 failure or HTTP error, 2 usage, 3 still rate limited, 4 unreachable.
Colour follows the terminal; NO_COLOR turns it off. UAS_URL, UAS_TOKEN and UAS_ADMIN_TOKEN set\nthe target, its access token and its dev API admin token.`,
  );
  for (const { name, options } of COMMANDS)
    if (register !== undefined && name === named) register(program, context);
    else summarize(declareCommand(program, name), options);
  return program;
}

/**
 * A command declared by its summary only, which the command line does not run: commander lists
 * a command with "[options]" when it has any, hidden ones included, so one hidden option stands
 * for all of them.
 */
function summarize(command: Command, options: boolean): void {
  if (options) command.addOption(new Option('--options').hideHelp());
}

/**
 * Runs the CLI with `argv` (as `process.argv`) and resolves with the exit code. Never throws:
 * every failure becomes a one-line message on stderr and a documented exit code.
 */
export async function run(argv: string[], io: CliIO = processIO()): Promise<number> {
  const context: CommandContext = { io, exitCode: EXIT.ok, argv: helpAsOption(argv) };
  const code = await runCommand(context);
  // Output a full disk or a failing device did not take: said, and never a success.
  const lost = context.stdoutIsLog === true ? undefined : await io.outputLost?.();
  if (lost === undefined) return code;
  io.stderr.write(`uas: the output could not all be written to stdout (${await oneLine(lost)})\n`);
  return code === EXIT.ok ? EXIT.failure : code;
}

async function runCommand(context: CommandContext): Promise<number> {
  const { io } = context;
  let program: Command | undefined;
  try {
    program = await createProgram(context);
    await program.parseAsync(context.argv);
    return context.exitCode;
  } catch (error) {
    // Commander's errors come from parsing, once the program is built.
    if (error instanceof CommanderError && program !== undefined) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')
        return EXIT.ok;
      // Help asked for (`uas help call`) is no mistake; help shown for one (`uas call`) is.
      if (error.code === 'commander.help')
        return context.errorHelpOf === undefined ? EXIT.ok : await helpForMistake(context, program);
      if (context.errorLine !== undefined) io.stderr.write(`${await oneLine(context.errorLine)}\n`);
      return EXIT.usage;
    }
    if (isCliError(error)) {
      // One line per problem, each saying what was given and what was expected.
      for (const line of error.message.split('\n'))
        io.stderr.write(`uas: ${await oneLine(line)}\n`);
      return error.exitCode;
    }
    const missing = missingFileOfUas(error);
    if (missing !== undefined) {
      io.stderr.write(
        `uas: this copy of uas is incomplete (${await oneLine(missing)} is missing): install it again, or run \`npm run build\` in its clone\n`,
      );
      return EXIT.usage;
    }
    io.stderr.write(`uas: unexpected failure: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT.failure;
  }
}

/**
 * The file of uas's own build a failed import looked for (a dist/ a build left half-written, a
 * copy with a file deleted), or undefined: a package that is not installed is named by the command
 * that needs it (importOptional), never here.
 */
function missingFileOfUas(error: unknown): string | undefined {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code !== 'ERR_MODULE_NOT_FOUND' || typeof message !== 'string') return undefined;
  return /^Cannot find module '([^']+)'/.exec(message)?.[1];
}

/**
 * Commander showed help because a command was missing: `uas` alone gets the help (on stdout, exit
 * 0); `uas call` without exists, start, verify or flow, and `uas help nope`, get one usage line.
 */
async function helpForMistake(context: CommandContext, program: Command): Promise<number> {
  const { io } = context;
  const of = context.errorHelpOf ?? program;
  const names = of.commands.map((command) => command.name());
  const operands = context.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const asked = operands[operands.indexOf('help') + 1];
  // `uas`, and the help of help (`uas help help`, `uas help --help`): the program's help.
  if (of === program && (operands.length === 0 || asked === undefined || asked === 'help')) {
    io.stdout.write(context.errorHelp ?? program.helpInformation());
    return EXIT.ok;
  }
  const list = names.join(', ');
  io.stderr.write(
    of === program && asked !== undefined
      ? `uas: unknown command '${await oneLine(clipped(asked))}'; the commands: ${list}\n`
      : `uas: ${of.name()} needs a command: ${list} (see uas ${of.name()} --help)\n`,
  );
  return EXIT.usage;
}

/**
 * A line of an error, which may repeat the command line: its control characters escaped (the
 * escaping loaded only then, so that a start that meets no error does not load it).
 */
async function oneLine(text: string): Promise<string> {
  const { escapeControls } = await import('../text/escape-controls.js');
  return escapeControls(text, { keepNewlines: false });
}

/**
 * `uas help call exists` as `uas call exists --help`: commander's help command takes one name, and
 * showed the help of `call` for it.
 */
function helpAsOption(argv: string[]): string[] {
  const [node = '', script = '', first, ...rest] = argv;
  if (first !== 'help' || rest.length < 2 || rest.some((word) => word.startsWith('-'))) return argv;
  return [node, script, ...rest, '--help'];
}

/** At most 100 characters of an argument a message quotes. */
const clipped = (text: string) => (text.length > 100 ? `${text.slice(0, 100)}…` : text);
