import { VERSION_MAX_LENGTH } from './admin/dev-api-bounds.js';
import type { DevApiAccess } from './admin/dev-api-target.js';
import { ConfigError, configIssue } from './config/config-error.js';
import type { DevApiOptions } from './emulator.js';

/** Who may use the dev API, with the defaults applied: open, without a token. */
export function devApiAccess(options: DevApiOptions | undefined): DevApiAccess {
  return {
    enabled: options?.enabled ?? true,
    adminToken: checkAdminToken(options?.adminToken),
  };
}

/**
 * An admin token a client can send: an empty one would let every request through (an empty
 * header matches it), and one with a space could never be sent in a Bearer header.
 */
function checkAdminToken(token: string | undefined): string | undefined {
  if (token === undefined || /^[\x21-\x7e]{1,512}$/.test(token)) return token;
  throw new ConfigError([
    configIssue(
      ['devApi', 'adminToken'],
      token === ''
        ? 'the admin token is empty; give one, or none'
        : 'expected 1 to 512 printable ASCII characters without spaces',
    ),
  ]);
}

/** The version `GET /__uas/health` reports: printable ASCII, as a version is written. */
export function checkVersion(version: string | undefined): string {
  if (version === undefined) return '0.0.0';
  if (new RegExp(`^[\\x21-\\x7e]{1,${VERSION_MAX_LENGTH}}$`).test(version)) return version;
  throw new ConfigError([
    configIssue(
      ['version'],
      `expected 1 to ${VERSION_MAX_LENGTH} printable ASCII characters without spaces`,
    ),
  ]);
}
