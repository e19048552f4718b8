import { DEMO_MERCHANT, DEMO_TOKEN } from '../../src/demo-config.js';

/** A response read whole: status, headers and parsed body. */
export interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

export async function send(baseUrl: string, path: string, init: RequestInit = {}): Promise<Reply> {
  const response = await fetch(`${baseUrl}${path}`, init);
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    body = {};
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** Calls the three operations of a target with the demo token unless told otherwise. */
export function createApi(baseUrl: string, token: string | undefined = DEMO_TOKEN) {
  const auth = (override?: string | null): Record<string, string> => {
    const value = override === null ? undefined : (override ?? token);
    return value === undefined ? {} : { authorization: `Bearer ${value}` };
  };
  const post = (
    action: 'start' | 'verify',
    body: unknown,
    options: { merchant?: string; token?: string | null; headers?: Record<string, string> } = {},
  ) =>
    send(
      baseUrl,
      `/v1/merchants/${options.merchant ?? DEMO_MERCHANT}/users/passwordless/${action}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth(options.token), ...options.headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      },
    );
  return {
    exists: (
      query: string,
      options: { token?: string | null; headers?: Record<string, string> } = {},
    ) =>
      send(baseUrl, `/v1/users/exists?${query}`, {
        headers: { ...auth(options.token), ...options.headers },
      }),
    start: (body: unknown, options?: Parameters<typeof post>[2]) => post('start', body, options),
    verify: (body: unknown, options?: Parameters<typeof post>[2]) => post('verify', body, options),
    dev: (path: string, init: RequestInit = {}) => send(baseUrl, `/__uas${path}`, init),
  };
}
