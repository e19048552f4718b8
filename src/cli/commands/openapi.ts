import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { declareCommand } from '../command-list.js';
import type { OpenApiFlags } from '../openapi/run-openapi.js';
import { addLimitOptions, integerIn, operationCosts } from '../options.js';

/** Registers `uas openapi`. */
export function registerOpenApi(program: Command, context: CommandContext): void {
  const command = declareCommand(program, 'openapi').option(
    '-c, --config <file>',
    'config file (JSON), as for uas serve; default: the bundled fixtures/uas.config.json',
  );
  addLimitOptions(command)
    .option(
      '--cost <costs>',
      'tokens each operation takes, such as "start=2" (may be repeated)',
      operationCosts,
    )
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
      const { runOpenApi } = await import('../openapi/run-openapi.js');
      context.exitCode = await runOpenApi(flags, context);
    });
}
