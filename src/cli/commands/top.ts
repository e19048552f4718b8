import { Option, type Command } from 'commander';
import type { CommandContext } from '../program.js';
import { CliError, colorsFor, EXIT } from '../io.js';
import { allowLiveScreen } from '../live-screen.js';
import { parseHttpUrl } from '../options.js';
import { DEFAULT_URL } from './call.js';

interface TopFlags {
  url: string;
  adminToken?: string;
  once?: boolean;
  json?: boolean;
}

/** Registers `uas top`. */
export function registerTop(program: Command, context: CommandContext): void {
  program
    .command('top')
    .description('watch the buckets of a running emulator fill and drain (through its dev API)')
    .addOption(new Option('--url <url>', 'the emulator').env('UAS_URL').default(DEFAULT_URL))
    .addOption(
      new Option(
        '--admin-token <token>',
        'the dev API admin token, when the emulator requires one',
      ).env('UAS_ADMIN_TOKEN'),
    )
    .option(
      '--once',
      'print one snapshot instead of the live screen (the default without a terminal)',
    )
    .option('--json', 'with a snapshot: print it as JSON')
    .addHelpText(
      'after',
      '\nKeys: q quit, ↑↓ select, r reset the selected bucket, R reset all, p pause, / filter, s sort, ? help.',
    )
    .action(async (flags: TopFlags) => {
      const { io } = context;
      const url = parseHttpUrl('--url', flags.url);
      const { createDevApiSource } = await import('../../tui/dev-api-source.js');
      const source = createDevApiSource({ url: url.href, adminToken: flags.adminToken });
      const terminal = io.terminal;
      const live =
        !flags.once &&
        !flags.json &&
        terminal !== undefined &&
        terminal.stdout.isTTY === true &&
        terminal.stdin.isTTY === true;
      if (!live) {
        const { takeSnapshot, formatSnapshot } = await import('../../tui/snapshot.js');
        let snapshot;
        try {
          snapshot = await takeSnapshot(source);
        } catch (error) {
          const { describeNetworkError } = await import('../../client/network-error.js');
          throw new CliError(
            `cannot read the dev API of ${url.origin}: ${describeNetworkError(error)}`,
            EXIT.network,
          );
        }
        io.stdout.write(
          flags.json
            ? `${JSON.stringify(snapshot, null, 2)}\n`
            : `${formatSnapshot(snapshot, colorsFor(io.stdout, io.env))}\n`,
        );
        return;
      }
      allowLiveScreen();
      const { runTui } = await import('../../tui/run-tui.js');
      await runTui(source, 'uas top', terminal);
    });
}
