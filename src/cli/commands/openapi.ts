import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import {
  applyConfigFlags,
  configErrorToCli,
  loadConfigFile,
  configFlagsOf,
} from '../config-loader.js';
import {
  addLimitOptions,
  integerIn,
  operationCosts,
  parseHttpUrl,
  type LimitFlags,
} from '../options.js';

/** Options of `uas openapi`, as commander parses them. */
interface OpenApiFlags extends LimitFlags {
  config?: string;
  cost?: Record<string, number>;
  otpTtl?: string;
  otpAttempts?: number;
  devApi?: boolean;
  serverUrl?: string;
  yaml?: boolean;
}

/** Registers `uas openapi`. */
export function registerOpenApi(program: Command, context: CommandContext): void {
  const command = program
    .command('openapi')
    .description(
      'print the OpenAPI 3.1 document of the service as `uas serve` would run it with the same config and flags',
    )
    .option(
      '-c, --config <file>',
      'config file (JSON), as for uas serve; default: the bundled fixtures/uas.config.json',
    );
  addLimitOptions(command)
    .option('--cost <costs>', 'tokens each operation takes, such as "start=2"', operationCosts)
    .option('--otp-ttl <duration>', 'how long a code is valid, such as "10m"')
    .option('--otp-attempts <n>', 'wrong codes allowed before a code dies', integerIn(1, 1000))
    .option('--dev-api', 'the document of the dev API (/__uas) instead of the service')
    .option('--server-url <url>', 'the server the document names', 'http://127.0.0.1:4010')
    .option('--yaml', 'print YAML instead of JSON')
    .addHelpText(
      'after',
      `
The same document is served by a running emulator at GET /__uas/openapi.json (its running
config), and createOpenApiDocument(config) returns it from code.

Examples:
  $ uas openapi > openapi.json
  $ uas openapi --config my-uas.json --headers x-ratelimit --yaml > openapi.yaml
  $ uas openapi --dev-api --yaml`,
    )
    .action(async (flags: OpenApiFlags) => {
      context.exitCode = await printDocument(flags, context);
    });
}

async function printDocument(flags: OpenApiFlags, context: CommandContext): Promise<number> {
  const { io } = context;
  const serverUrl = parseHttpUrl('--server-url', flags.serverUrl ?? '').href.replace(/\/+$/, '');
  const loaded = await loadConfigFile(flags.config, io.cwd);
  const overrides = configFlagsOf(flags);
  const [{ resolveConfig }, { isConfigError }] = await Promise.all([
    import('../../core/config/config.js'),
    import('../../core/config/config-error.js'),
  ]);
  let config: ReturnType<typeof resolveConfig>;
  try {
    config = resolveConfig(applyConfigFlags(loaded.config, overrides));
  } catch (error) {
    if (!isConfigError(error)) throw error;
    throw configErrorToCli(error, overrides, `config in ${loaded.path}`);
  }
  const { createOpenApiDocument } = await import('../../contract/openapi-document.js');
  const document = flags.devApi
    ? (await import('../../contract/dev-api-document.js')).createDevApiDocument(config, {
        serverUrl,
      })
    : createOpenApiDocument(config, { serverUrl });
  if (flags.yaml) {
    const { stringify } = await import('yaml');
    io.stdout.write(stringify(document, { lineWidth: 0, aliasDuplicateObjects: false }));
  } else {
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  }
  return 0;
}
