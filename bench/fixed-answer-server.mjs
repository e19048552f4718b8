// A baseline of bench:serve: uas's transport (the socket layer of `uas serve`) over an emulator
// whose handle() returns a fixed exists answer with uas's headers. Against `bare, uas headers` it
// measures the transport; against the default engine, the core's request path.
import { readFileSync } from 'node:fs';
import { createEmulator } from '../dist/internal/emulator.js';
import { createHttpTransport } from '../dist/internal/transport/http-transport.js';

const config = JSON.parse(
  readFileSync(new URL('../fixtures/uas.config.json', import.meta.url), 'utf8'),
);
const emulator = createEmulator({ config });
let remaining = 999_999_999;
const fixed = {
  ...emulator,
  handle: () => ({
    status: 200,
    headers: {
      'uas-bucket': 'client:demo',
      'ratelimit-policy': '"client";q=1000000000;w=1',
      ratelimit: `"client";r=${remaining--};t=0`,
      'content-type': 'application/json',
    },
    body: { exists: true, token_count: 2 },
    delayMs: 0,
  }),
};
const { server, close } = createHttpTransport(fixed);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => close(1_000).then(() => process.exit(0)));
