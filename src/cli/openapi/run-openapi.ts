import { stringify } from 'yaml';
import type { CommandContext } from '../command-context.js';
import {
  applyConfigFlags,
  configErrorToCli,
  configFlagsOf,
  loadConfigFile,
} from '../config-loader.js';
import { parseHttpUrl, type LimitFlags } from '../options.js';

/** Options of `uas openapi`, as commander parses them. */
export interface OpenApiFlags extends LimitFlags {
  config?: string;
  cost?: Record<string, number>;
  otpTtl?: string;
  otpAttempts?: number;
  devApi?: boolean;
  serverUrl?: string;
  yaml?: boolean;
}

/** Prints the OpenAPI document `uas openapi` is asked for; resolves with the exit code. */
export async function runOpenApi(flags: OpenApiFlags, context: CommandContext): Promise<number> {
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
  // yaml is imported with this module, which only uas openapi loads: a CommonJS package loaded
  // by import() from the bundle would give its exports as its default alone.
  if (flags.yaml) {
    io.stdout.write(stringify(document, { lineWidth: 0, aliasDuplicateObjects: false }));
  } else {
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  }
  return 0;
}
