import { Option, type Command } from 'commander';
import type { CommandContext } from '../program.js';
import { CliError, EXIT } from '../io.js';
import { parseHttpUrl } from '../options.js';
import { DEFAULT_URL } from './call.js';

interface CodeFlags {
  url: string;
  adminToken?: string;
  merchant?: string;
  json?: boolean;
}

/** Registers `uas code <email>`. */
export function registerCode(program: Command, context: CommandContext): void {
  program
    .command('code')
    .description('print the latest one-time code an emulator issued for an e-mail')
    .argument('<email>', "the user's e-mail")
    .addOption(new Option('--url <url>', 'the emulator').env('UAS_URL').default(DEFAULT_URL))
    .addOption(
      new Option(
        '--admin-token <token>',
        'the dev API admin token, when the emulator requires one',
      ).env('UAS_ADMIN_TOKEN'),
    )
    .option('--merchant <id>', 'the merchant the code was issued at (default: any, the latest)')
    .option('--json', 'print the code with its merchant, expiry, attempts left and use')
    .addHelpText(
      'after',
      `
Prints only the digits, so a script can take them: CODE=$(uas code alice@example.com)
The latest code, even one used, expired or out of attempts: --json says which.
Exit codes: 0 printed, 1 no code was issued (or the dev API refused the call),
2 usage (or the admin token is missing or refused), 4 the emulator could not be reached.`,
    )
    .action(async (email: string, flags: CodeFlags) => {
      const { io } = context;
      const url = parseHttpUrl('--url', flags.url);
      const [
        { createDevClient },
        { isDevApiError },
        { toSafeJson, escapeControls },
        { adminTokenProblem },
      ] = await Promise.all([
        import('../../dev-client/dev-client.js'),
        import('../../dev-client/dev-api-error.js'),
        import('../safe-text.js'),
        import('../../text/admin-token-problem.js'),
      ]);
      const dev = createDevClient(url.href, { adminToken: flags.adminToken, timeoutMs: 5000 });
      let code;
      try {
        code = await dev.latestCode(email, flags.merchant);
      } catch (error) {
        if (!isDevApiError(error)) throw error;
        if (error.failure === 'admin-token')
          throw new CliError(
            `cannot read the code from ${url.href.replace(/\/+$/, '')}: ${adminTokenProblem(flags.adminToken !== undefined)}`,
            EXIT.usage,
          );
        throw new CliError(
          error.message,
          error.failure === 'network' ? EXIT.network : EXIT.failure,
        );
      }
      if (code === undefined) {
        const where = flags.merchant === undefined ? '' : ` at merchant ${flags.merchant}`;
        throw new CliError(
          `no code was issued for ${escapeControls(email, { keepNewlines: false })}${escapeControls(where, { keepNewlines: false })}; call start first`,
          EXIT.failure,
        );
      }
      io.stdout.write(
        flags.json
          ? `${toSafeJson(code)}\n`
          : `${escapeControls(code.code, { keepNewlines: false })}\n`,
      );
    });
}
