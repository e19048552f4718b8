import { UUID } from '../../core/config/config-schema.js';
import { EMAIL_PATTERN } from '../../core/config/config-schema.js';
import { isDevApiError } from '../../dev-client/dev-api-error.js';
import { createDevClient } from '../../dev-client/dev-client.js';
import { adminTokenProblem } from '../../text/admin-token-problem.js';
import { CliError, EXIT, type CliIO } from '../io.js';
import { ADMIN_TOKEN, parseHttpUrl } from '../options.js';
import { escapeControls, toSafeJson } from '../safe-text.js';
import { sendableAdminToken } from '../resolve-access-token.js';

/** Options of `uas code`, as commander parses them. */
export interface CodeFlags {
  url: string;
  adminToken?: string;
  merchant?: string;
  json?: boolean;
}

/**
 * Runs `uas code <email>`: prints the latest code the emulator at `--url` issued for `email`
 * (only its digits, or all about it with `--json`). Failures are one line and an exit code.
 */
export async function runCode(email: string, flags: CodeFlags, io: CliIO): Promise<void> {
  const url = parseHttpUrl('--url', flags.url, ADMIN_TOKEN);
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
  const code = await readLatestCode(url, email, flags);
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
  if (!flags.json) {
    io.stdout.write(`${code.code}\n`);
    return;
  }
  // The fields docs/code.md lists, and nothing else a dev API adds; each a plain value, since a
  // value nested deeper than JSON.stringify can recurse would end in a stack trace.
  const record = {
    merchant_id: code.merchant_id,
    email: code.email,
    code: code.code,
    issued_at: code.issued_at,
    expires_at: code.expires_at,
    attempts_left: code.attempts_left,
    used: code.used,
  };
  if (Object.values(record).some((value) => typeof value === 'object' && value !== null))
    throw new CliError(
      `the dev API of ${url.href.replace(/\/+$/, '')} gave a code record that is not one (not shown)`,
      EXIT.failure,
    );
  io.stdout.write(`${toSafeJson(record)}\n`);
}

/** The latest code from the dev API, or undefined; its failures in the command's words. */
async function readLatestCode(url: URL, email: string, flags: CodeFlags) {
  const adminToken = sendableAdminToken(flags.adminToken);
  const dev = createDevClient(url.href, { adminToken, timeoutMs: 5000 });
  try {
    return await dev.latestCode(email, flags.merchant);
  } catch (error) {
    if (!isDevApiError(error)) throw error;
    if (error.failure === 'admin-token')
      throw new CliError(
        `cannot read the code from ${url.href.replace(/\/+$/, '')}: ${adminTokenProblem(flags.adminToken !== undefined)}`,
        EXIT.usage,
      );
    throw new CliError(error.message, error.failure === 'network' ? EXIT.network : EXIT.failure);
  }
}
