import type { RequestRecord } from '../core/records/records.js';

/** A request to send again, as the Fetch API takes it. */
export interface ReplayRequest {
  method: string;
  /** Path and query, on the dashboard's own origin. */
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/**
 * The request a record describes, to send again: its method and path, its fields (in the query
 * of a GET, the JSON body otherwise), its caller_id where it was sent (a misplaced one where it
 * was misplaced), and `token` as the client's bearer token. Records never hold the one-time code
 * nor the client's token, so a verify sent again has no code.
 */
export function replayRequest(record: RequestRecord, token: string): ReplayRequest {
  const fields: Record<string, unknown> = { ...(record.fields ?? {}) };
  const query = new URLSearchParams();
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (record.caller_id !== undefined && record.caller_id_source !== undefined)
    fields.caller_id = record.caller_id;
  for (const misplaced of record.caller_id_misplaced) {
    if (misplaced.place === 'header') headers[misplaced.name.toLowerCase()] = misplaced.value;
    else if (misplaced.place === 'query') query.set(misplaced.name, misplaced.value);
    else fields[misplaced.name] = misplaced.value;
  }
  if (record.idempotency_key !== undefined) headers['idempotency-key'] = record.idempotency_key;
  let body: string | undefined;
  if (record.method === 'GET' || record.method === 'HEAD') {
    for (const [name, value] of Object.entries(fields)) query.set(name, String(value));
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(fields);
  }
  const search = query.toString();
  return {
    method: record.method,
    url: `${record.path}${search === '' ? '' : `?${search}`}`,
    headers,
    body,
  };
}

/** Quotes a word for a POSIX shell. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The record as a curl command line for `origin`, its token left as `$UAS_TOKEN`. */
export function curlCommand(record: RequestRecord, origin: string): string {
  const replay = replayRequest(record, '$UAS_TOKEN');
  const parts = ['curl', '-i'];
  if (replay.method !== 'GET') parts.push('-X', replay.method);
  for (const [name, value] of Object.entries(replay.headers))
    parts.push(
      '-H',
      name === 'authorization'
        ? `"Authorization: Bearer $UAS_TOKEN"`
        : shellQuote(`${name}: ${value}`),
    );
  if (replay.body !== undefined) parts.push('-d', shellQuote(replay.body));
  parts.push(shellQuote(`${origin}${replay.url}`));
  return parts.join(' ');
}
