// The baseline of bench:serve: a bare node:http server answering the exists payload as JSON.
import { createServer } from 'node:http';

const body = JSON.stringify({ exists: true, token_count: 2 });
const server = createServer((req, res) => {
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
