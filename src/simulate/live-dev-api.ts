import { createDevClient } from '../dev-client/dev-client.js';
import { isDevApiError } from '../dev-client/dev-api-error.js';
import { adminTokenProblem } from '../text/admin-token-problem.js';
import { LiveRunError } from './live-run-error.js';

/** Users registered per `POST /__uas/users` (about 200 KB of JSON). */
export const USER_BATCH = 5000;

/** Options of {@link createLiveDevApi}. */
export interface LiveDevApiOptions {
  /** Base URL of the target, without a trailing slash. */
  base: string;
  /** The target's dev API admin token (`uas serve --admin-token`), when it has one. */
  adminToken?: string | undefined;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
}

/** The calls a live run makes to a uas emulator's dev API. */
export interface LiveDevApi {
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
 * The dev API calls of a live run, over the shared dev client. Every failure is a
 * {@link LiveRunError} of one line that names the call: never a stack trace, never a silent
 * guess.
 */
export function createLiveDevApi(options: LiveDevApiOptions): LiveDevApi {
  const dev = createDevClient(options.base, {
    adminToken: options.adminToken,
    fetch: options.fetch,
  });
  const live = (error: unknown): unknown => {
    if (!isDevApiError(error)) return error;
    if (error.failure === 'network')
      return new LiveRunError(
        `the target's dev API did not answer ${error.call}: ${error.detail}`,
        'network',
      );
    if (error.failure === 'admin-token')
      return new LiveRunError(
        `cannot use the target's dev API (${error.call}): ${adminTokenProblem(options.adminToken !== undefined)}`,
        'admin-token',
      );
    return new LiveRunError(
      `the target's dev API refused ${error.call}: ${error.status}${error.detail === '' ? '' : ` ${error.detail}`}`,
      'refused',
    );
  };
  const attempt = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw live(error);
    }
  };

  return {
    async isEmulator() {
      try {
        return (await dev.health()).status === 'ok';
      } catch (error) {
        // An emulator with an admin token: running on without its dev API would mislead.
        if (isDevApiError(error) && error.failure === 'admin-token') throw live(error);
        return false;
      }
    },
    async addUsers(emails) {
      for (let from = 0; from < emails.length; from += USER_BATCH) {
        const users = emails.slice(from, from + USER_BATCH).map((email) => ({ email }));
        await attempt(() => dev.addUsers(users));
      }
    },
    async configure(patch) {
      await attempt(() => dev.configure(patch));
    },
    async resetBuckets() {
      await attempt(() => dev.resetBuckets());
    },
    async latestCode(email, merchantId) {
      return (await attempt(() => dev.latestCode(email, merchantId)))?.code;
    },
  };
}
