import { describeFsError } from '../file-error.js';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { AnyEmulator } from '../../core/emulator.js';
import type { Engine } from '../../transport/http-transport.js';
import { CliError, EXIT } from '../io.js';
import type { ServeFlags } from './serve-flags.js';

/** The engine of `uas serve --upstream`, its custom CA (`--upstream-ca`) read first. */
export async function loadProxyEngine(
  emulator: AnyEmulator,
  flags: ServeFlags,
  cwd: string,
): Promise<Engine> {
  const { createProxyEngine } = await import('../../proxy/proxy-engine.js');
  let ca: string | undefined;
  if (flags.upstreamCa !== undefined) {
    const file = resolve(cwd, flags.upstreamCa);
    try {
      ca = await readFile(file, 'utf8');
    } catch (error) {
      throw new CliError(
        `cannot read --upstream-ca ${file}: ${describeFsError(error)}`,
        EXIT.usage,
      );
    }
    if (!ca.includes('-----BEGIN CERTIFICATE-----'))
      throw new CliError(`--upstream-ca ${file} holds no PEM certificate`, EXIT.usage);
  }
  return createProxyEngine(emulator, {
    base: flags.upstream as string,
    enforce: flags.enforce,
    ca,
    timeoutMs: flags.upstreamTimeout,
  });
}
