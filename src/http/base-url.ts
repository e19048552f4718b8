const EXAMPLES = '"https://uas.test" or "http://localhost:5173/uas"';

/**
 * Checks a base URL: an absolute http(s) URL, an origin with an optional path prefix. Returns it
 * normalized, without its trailing slash (`HTTPS://UAS.test:443/uas/` is `https://uas.test/uas`),
 * as request URLs are written. Anything else is a TypeError that names `name`, the value (its
 * password masked) and what is wrong: an empty string (an environment variable left unset) or a
 * relative URL, which would answer every origin; another scheme, a query, a fragment or
 * credentials, which no request URL has, so they would silently match nothing (or, to fetch, fail).
 * `credentials` says, after that, what to give instead.
 */
export function checkBaseUrl(value: unknown, name: string, credentials = ''): string {
  const refuse = (why: string) =>
    new TypeError(
      `${name} must be an absolute http: or https: URL (an origin, with a path prefix or not) such as ${EXAMPLES}; got ${describe(value)}: ${why}`,
    );
  if (typeof value !== 'string') throw refuse('not a string');
  if (value.trim() === '')
    throw refuse(
      'it is empty (an environment variable left unset?), which would stand for every origin',
    );
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse('not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refuse(`its scheme is ${url.protocol}; requests are http: or https:`);
  if (url.username !== '' || url.password !== '')
    throw refuse(`it has credentials (user:password@), which no request URL carries${credentials}`);
  if (value.includes('?'))
    throw refuse('it has a query (?...); requests are matched on origin and path only');
  if (value.includes('#'))
    throw refuse('it has a fragment (#...), which is never part of a request');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** `//user:password@` in text that may be a URL: never repeated in an error. */
const USERINFO = /(\/\/)[^/?#@]*@/g;

function describe(value: unknown): string {
  if (typeof value === 'string') {
    const shown = value.replace(USERINFO, '$1***@');
    return JSON.stringify(shown.length > 200 ? `${shown.slice(0, 200)}…` : shown);
  }
  return value === null || typeof value !== 'object' ? String(value) : typeof value;
}
