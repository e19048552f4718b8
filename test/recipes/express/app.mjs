import express from 'express';
import { createMiddleware } from 'uas/express';

// The emulator mounted under /uas in an app of your own (Express 4 or 5).
const app = express();
app.get('/health', (_req, res) => res.json({ app: 'ok' }));
app.use('/uas', createMiddleware()); // /uas/v1/users/exists, /uas/__uas/buckets, ...

const server = app.listen(0, '127.0.0.1', async () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  const exists = await fetch(`${base}/uas/v1/users/exists?email=alice%40example.com`, {
    headers: { authorization: 'Bearer uas-demo-token' },
  });
  const app = await fetch(`${base}/health`);
  console.log(exists.status, JSON.stringify(await exists.json()), JSON.stringify(await app.json()));
  server.close();
});
