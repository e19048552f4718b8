import type { EvidenceRequest } from './check-report.js';

/** Most characters of a request's fields shown on its line. */
const FIELDS_MAX = 200;

/**
 * One request of a finding's evidence in one line: `#3 2026-01-01T10:00:00.000Z GET
 * /v1/users/exists 429 {"email":"ann@example.com"}`. Unescaped: it quotes the request.
 */
export function describeEvidenceRequest(request: EvidenceRequest): string {
  const fields = request.fields === null ? '(fields unreadable)' : JSON.stringify(request.fields);
  // Cut by code points, so that no half of a surrogate pair is left.
  const points = Array.from(fields);
  const clipped =
    points.length > FIELDS_MAX ? `${points.slice(0, FIELDS_MAX - 1).join('')}…` : fields;
  return `#${request.id} ${request.time} ${request.method} ${request.path} ${request.status} ${clipped}`;
}
