import { Option, type Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { CliError, EXIT } from '../io.js';
import { parseHttpUrl } from '../options.js';
import { DEFAULT_URL } from '../defaults.js';

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
      const [{ EMAIL_PATTERN }, { UUID }] = await Promise.all([
        import('../../core/service/input-rules.js'),
        import('../../core/config/config-schema.js'),
      ]);
      // What the emulator would refuse at start is no e-mail or merchant a code was issued for.
      if (email.length > 254 || !EMAIL_PATTERN.test(email))
        throw new CliError(
          `invalid <email>: expected an e-mail address such as alice@example.com; got ${JSON.stringify(email.slice(0, 100))}`,
          EXIT.usage,
        );
      if (flags.merchant !== undefined && !UUID.test(flags.merchant))
        throw new CliError(
          `invalid --merchant: expected a merchant id in UUID form; got ${JSON.stringify(flags.merchant.slice(0, 100))}`,
          EXIT.usage,
        );
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
      // A code is digits; anything else is not one, and is neither shown nor exits 0.
      if (typeof code.code !== 'string' || !/^\d{1,32}$/.test(code.code))
        throw new CliError(
          `the dev API of ${url.href.replace(/\/+$/, '')} gave a code that is not digits (not shown)`,
          EXIT.failure,
        );
      io.stdout.write(flags.json ? `${toSafeJson(code)}\n` : `${code.code}\n`);
    });
}
