// A baseline of bench:serve: the least an emulator of the exists endpoint must do per request, on
// bare node:http, and nothing else: route, look the Bearer token up, parse the query, check the
// e-mail, refill and take from the caller's or client's token bucket, look the user up, and answer
// with the rate-limit headers. No journal, metrics, events, latency, faults, problem+json or
// transport hardening. The gap between it and `bare, uas headers` is what the spec's own work
// costs on this machine, whoever writes it; the gap between it and uas is what uas adds.
//
// Bucket sizes come as in `uas serve`: --client-burst N --client-rate N/s.
// bench:serve:in-process imports createMinimalServer.
import { createServer } from 'node:http';
import { pathToFileURL, URLSearchParams } from 'node:url';
import { parseArgs } from 'node:util';

const tokens = new Map([['uas-demo-token', 'demo']]);
const users = new Map([['alice@example.com', { token_count: 2 }]]);
const EMAIL = /^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$/;

function answer(res, status, headers, body) {
  headers['content-type'] = status === 200 ? 'application/json' : 'application/problem+json';
  headers['content-length'] = Buffer.byteLength(body);
  res.writeHead(status, headers);
  res.end(body);
}

/** The minimal emulator with client buckets of `burst` tokens refilled at `perSecond`. */
export function createMinimalServer(burst, perSecond) {
  const perMs = perSecond / 1000;
  const windowSeconds = Math.ceil(burst / perSecond);
  const buckets = new Map();
  return createServer((req, res) => {
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    if (path !== '/v1/users/exists') return answer(res, 404, {}, '{"status":404}');
    if (req.method !== 'GET') return answer(res, 405, { allow: 'GET' }, '{"status":405}');
    const auth = req.headers.authorization;
    const client = auth?.startsWith('Bearer ') ? tokens.get(auth.slice(7)) : undefined;
    if (client === undefined) return answer(res, 401, {}, '{"status":401}');
    const query = new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1));
    const email = query.get('email');
    if (email === null || !EMAIL.test(email)) return answer(res, 400, {}, '{"status":400}');
    const callerId = query.get('caller_id');
    const level = callerId === null ? 'client' : 'caller';
    const key = callerId === null ? `client:${client}` : `caller:${client}:${callerId}`;
    const now = Date.now();
    let bucket = buckets.get(key);
    if (bucket === undefined) buckets.set(key, (bucket = { tokens: burst, at: now }));
    bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    const remaining = Math.floor(bucket.tokens);
    const reset = Math.ceil((1 - (bucket.tokens % 1)) / perMs / 1000);
    const headers = {
      'uas-bucket': key,
      'ratelimit-policy': `"${level}";q=${burst};w=${windowSeconds}`,
      ratelimit: `"${level}";r=${remaining};t=${reset}`,
    };
    if (!allowed) {
      headers['retry-after'] = String(reset);
      return answer(res, 429, headers, '{"status":429}');
    }
    const user = users.get(email.toLowerCase());
    answer(
      res,
      200,
      headers,
      JSON.stringify({ exists: user !== undefined, token_count: user?.token_count ?? 0 }),
    );
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      'client-burst': { type: 'string', default: '1000000000' },
      'client-rate': { type: 'string', default: '1000000000/s' },
    },
  });
  const server = createMinimalServer(
    Number(values['client-burst']),
    Number.parseFloat(values['client-rate']),
  );
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
