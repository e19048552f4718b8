import { describeNetworkError } from '../client/network-error.js';
import { LiveRunError } from './live-run-error.js';

/** Users registered per `POST /__uas/users` (about 200 KB of JSON). */
export const USER_BATCH = 5000;

/** Options of {@link createDevApiClient}. */
export interface DevApiClientOptions {
  /** Base URL of the target, without a trailing slash. */
  base: string;
  /** The target's dev API admin token (`uas serve --admin-token`), when it has one. */
  adminToken?: string | undefined;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
}

/** The calls a live run makes to a uas emulator's dev API. */
export interface DevApiClient {
  /** Whether the target is a uas emulator whose dev API answers. */
  isEmulator(): Promise<boolean>;
  /** Registers users by e-mail, {@link USER_BATCH} per request. */
  addUsers(emails: string[]): Promise<void>;
  /** Changes the running config (`PATCH /__uas/config`). */
  configure(patch: unknown): Promise<void>;
  /** Empties every bucket. */
  resetBuckets(): Promise<void>;
  /** The last code issued for a user at a merchant, or undefined when none was. */
  latestCode(email: string, merchantId: string): Promise<string | undefined>;
}

/**
 * A client of the dev API for live runs. Every failure is a {@link LiveRunError} of one line that
 * names the call: never a stack trace, never a silent guess.
 */
export function createDevApiClient(options: DevApiClientOptions): DevApiClient {
  const fetchImpl = options.fetch ?? fetch;
  const auth: Record<string, string> =
    options.adminToken === undefined ? {} : { authorization: `Bearer ${options.adminToken}` };

  const send = async (
    method: string,
    path: string,
    body?: unknown,
    timeoutMs?: number,
  ): Promise<Response> => {
    try {
      return await fetchImpl(`${options.base}${path}`, {
        method,
        headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
      });
    } catch (error) {
      throw new LiveRunError(
        `the target's dev API did not answer ${method} ${path}: ${describeNetworkError(error)}`,
        'network',
      );
    }
  };
  const call = async (method: string, path: string, body?: unknown): Promise<Response> => {
    const answer = await send(method, path, body);
    if (!answer.ok) throw await refusal(method, path, answer);
    return answer;
  };

  return {
    async isEmulator() {
      let answer: Response;
      try {
        answer = await send('GET', '/__uas/health', undefined, 3000);
      } catch {
        return false;
      }
      // An emulator with an admin token: running on without its dev API would mislead.
      if (answer.status === 401 || answer.status === 403)
        throw await refusal('GET', '/__uas/health', answer, tokenHint(options.adminToken));
      if (!answer.ok) return false;
      try {
        return ((await answer.json()) as { status?: unknown }).status === 'ok';
      } catch {
        return false;
      }
    },
    async addUsers(emails) {
      for (let from = 0; from < emails.length; from += USER_BATCH) {
        const users = emails.slice(from, from + USER_BATCH).map((email) => ({ email }));
        await call('POST', '/__uas/users', { users });
      }
    },
    async configure(patch) {
      await call('PATCH', '/__uas/config', patch);
    },
    async resetBuckets() {
      await call('DELETE', '/__uas/buckets');
    },
    async latestCode(email, merchantId) {
      const path = `/__uas/codes/${encodeURIComponent(email)}?merchant_id=${encodeURIComponent(merchantId)}`;
      const answer = await send('GET', path);
      if (answer.status === 404) return undefined;
      if (!answer.ok) throw await refusal('GET', path, answer);
      const body = (await answer.json().catch(() => ({}))) as { code?: unknown };
      return typeof body.code === 'string' ? body.code : undefined;
    },
  };
}

function tokenHint(adminToken: string | undefined): string {
  return adminToken === undefined
    ? '; pass its admin token with --admin-token (or UAS_ADMIN_TOKEN)'
    : '; check --admin-token (or UAS_ADMIN_TOKEN)';
}

/** One line on a refused call: the status and the problem's detail (or the start of the body). */
async function refusal(
  method: string,
  path: string,
  answer: Response,
  hint = '',
): Promise<LiveRunError> {
  const text = await answer.text().catch(() => '');
  let detail: string = text;
  try {
    const problem = JSON.parse(text) as { detail?: unknown; title?: unknown };
    if (typeof problem.detail === 'string') detail = problem.detail;
    else if (typeof problem.title === 'string') detail = problem.title;
  } catch {
    // Not JSON: the text itself, shortened below.
  }
  detail = detail.replace(/\s+/g, ' ').trim();
  if (detail.length > 200) detail = `${detail.slice(0, 199)}…`;
  return new LiveRunError(
    `the target's dev API refused ${method} ${path}: ${answer.status}${detail === '' ? '' : ` ${detail}`}${hint}`,
    'refused',
  );
}
