import type { AddressInfo } from 'node:net';
import express from 'express';

/**
 * The benchmark's baseline: a bare express 5 app with no middleware beyond JSON body parsing.
 * Run as its own process (as the service is); listens on a free port of 127.0.0.1 and prints
 * `{"port":N}` on one line once it serves.
 */
const app = express();
app.disable('x-powered-by');
app.disable('etag');

app.get('/bare', (_req, res) => {
  res.json({ id: 'bare_1', object: 'bare', ok: true });
});

app.post('/bare', express.json(), (req, res) => {
  res.json(req.body);
});

const server = app.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});

const stop = (): void => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
