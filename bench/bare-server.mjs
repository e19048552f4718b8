// The baselines of bench:serve: a bare node:http server answering the exists payload as JSON.
// With `--uas-headers` it also sends the headers uas sends with it (UAS-Bucket, RateLimit-Policy,
// RateLimit with a changing count): the same answer, byte for byte in size, with no logic behind
// it, which is the ceiling any emulator of the spec can reach in the same run.
import { createServer } from 'node:http';

const body = JSON.stringify({ exists: true, token_count: 2 });
const withHeaders = process.argv.includes('--uas-headers');
let remaining = 999_999_999;
const server = createServer((req, res) => {
  if (withHeaders)
    res.writeHead(200, {
      'uas-bucket': 'client:demo',
      'ratelimit-policy': '"client";q=1000000000;w=1',
      ratelimit: `"client";r=${remaining--};t=0`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
  else
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
