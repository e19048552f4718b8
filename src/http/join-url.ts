/**
 * The URL of `path` (with its query, if any) under `base`, an http(s) base URL with or without a
 * path prefix: `joinUrl('http://h:4010/uas/', '/v1/users/exists')` is
 * `http://h:4010/uas/v1/users/exists`. The base's trailing slashes are dropped, so a path is
 * never doubled; `path` starts with `/`.
 */
export function joinUrl(base: string, path: string): string {
  return `${trimBaseUrl(base)}${path}`;
}

/** A base URL without its trailing slashes, as request URLs are written from it. */
export function trimBaseUrl(base: string): string {
  return base.replace(/\/+$/, '');
}
