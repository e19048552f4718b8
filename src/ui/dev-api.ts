import { signal } from '@preact/signals';

const TOKEN_KEY = 'uas.adminToken';

/** The admin token, kept for this tab only (sessionStorage), never in a URL. */
export const adminToken = signal<string | undefined>(readToken());
/** Whether the dev API asked for the admin token (401 admin-token-required). */
export const needsToken = signal(false);

function readToken(): string | undefined {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the admin token for this tab. */
export function setAdminToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
  adminToken.value = token;
  needsToken.value = false;
}

/** An answer of the dev API: its status and body (JSON when it is JSON, text otherwise). */
export interface DevAnswer<T = unknown> {
  ok: boolean;
  status: number;
  body: T;
}

/** The headers every dev-API call sends: the admin token, when one is kept. */
export function devHeaders(extra: Record<string, string> = {}): Record<string, string> {
  const token = adminToken.value;
  return token === undefined ? extra : { ...extra, authorization: `Bearer ${token}` };
}

/**
 * Calls the dev API on this origin: a body is sent as JSON (writes without one send `{}`, as
 * the dev API wants JSON on every write). A network failure is an answer with status 0.
 */
export async function devApi<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
): Promise<DevAnswer<T>> {
  const write = method !== 'GET' && method !== 'HEAD';
  let response: Response;
  try {
    response = await fetch(`/__uas${path}`, {
      method,
      headers: devHeaders(write ? { 'content-type': 'application/json' } : {}),
      body: write ? JSON.stringify(body ?? {}) : undefined,
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch (error) {
    return {
      ok: false,
      status: 0,
      body: { detail: `the server did not answer: ${(error as Error).message}` } as T,
    };
  }
  const type = response.headers.get('content-type') ?? '';
  const answer = type.includes('json')
    ? await response.json().catch(() => undefined)
    : await response.text();
  if (response.status === 401) needsToken.value = true;
  return { ok: response.ok, status: response.status, body: answer as T };
}

/** The problem's own message of a refused call, for a person. */
export function problemText(answer: DevAnswer): string {
  const body = answer.body as { detail?: unknown; title?: unknown } | undefined;
  const detail =
    typeof body?.detail === 'string'
      ? body.detail
      : typeof body?.title === 'string'
        ? body.title
        : '';
  return answer.status === 0 ? detail : `${answer.status}${detail === '' ? '' : `: ${detail}`}`;
}
