import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { headerValue } from '../../core/service/exchange.js';
import { createProblem } from '../../core/service/problems.js';
import { SITE_PREFIX, type StaticSite } from '../../transport/static-site.js';
import type { TransportResponse } from '../../transport/transport-exchange.js';

/**
 * The dashboard's Content-Security-Policy: its own scripts, styles and connections only (no
 * inline script, no eval, no other host), in no frame.
 */
export const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

/** One file of the site, held in memory with its gzip form and validator. */
interface SiteFile {
  type: string;
  body: Buffer;
  gzip: Buffer | undefined;
  etag: string;
  /** Hashed names (under `assets/`) never change; the page itself is revalidated. */
  immutable: boolean;
}

/**
 * Where the built dashboard is: `dist/ui/` of the package, found from this module (compiled
 * under `dist/adapters/http/`, or bundled elsewhere in `dist/`).
 */
export function dashboardDirectory(): string | undefined {
  for (const up of ['../../ui/', '../ui/', './ui/']) {
    const dir = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return undefined;
}

/**
 * Loads the built dashboard (`npm run build` writes it) into memory and serves it: `index.html`
 * at `/__uas/ui/`, the rest by name, with its content type, an ETag, gzip when asked, and the
 * dashboard's security headers. Undefined when the directory holds no dashboard.
 */
export function loadDashboardSite(dir = dashboardDirectory()): StaticSite | undefined {
  if (dir === undefined || !existsSync(join(dir, 'index.html'))) return undefined;
  const files = new Map<string, SiteFile>();
  for (const path of listFiles(dir)) {
    const type = TYPES[extname(path)];
    if (type === undefined) continue;
    const name = relative(dir, path).split(sep).join('/');
    const body = readFileSync(path);
    files.set(name, {
      type,
      body,
      gzip: type.startsWith('image/png') ? undefined : gzipSync(body, { level: 9 }),
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      immutable: name.startsWith('assets/'),
    });
  }
  return ({ method, path, headers }) => {
    if (path === SITE_PREFIX)
      return { status: 308, headers: { location: `${SITE_PREFIX}/`, ...securityHeaders() } };
    const name = path.slice(SITE_PREFIX.length + 1) || 'index.html';
    const file = files.get(name);
    if (file === undefined) return undefined;
    if (method !== 'GET' && method !== 'HEAD')
      return {
        status: 405,
        headers: { 'content-type': 'application/problem+json', allow: 'GET, HEAD' },
        body: JSON.stringify(
          createProblem('method-not-allowed', `${path} accepts GET, HEAD, not ${method}`, {
            instance: path,
          }),
        ),
      };
    return answerFile(file, headers);
  };
}

/** The answer for one file: 304 when the client holds it, gzip when it takes it. */
function answerFile(
  file: SiteFile,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): TransportResponse {
  const common = {
    ...securityHeaders(),
    etag: file.etag,
    'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    vary: 'Accept-Encoding',
  };
  const held = headerValue(headers, 'if-none-match') ?? '';
  if (held.split(',').some((tag) => tag.trim() === file.etag))
    return { status: 304, headers: common };
  const gzip =
    file.gzip !== undefined && /\bgzip\b/i.test(headerValue(headers, 'accept-encoding') ?? '');
  return {
    status: 200,
    headers: {
      ...common,
      'content-type': file.type,
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    },
    body: gzip ? file.gzip : file.body,
  };
}

function securityHeaders(): Record<string, string> {
  return {
    'content-security-policy': DASHBOARD_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'x-frame-options': 'DENY',
  };
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? listFiles(join(dir, entry.name))
      : entry.isFile()
        ? [join(dir, entry.name)]
        : [],
  );
}
