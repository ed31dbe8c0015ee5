import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { appMessages } from '../../packages/http/app-messages.ts';

/**
 * The benchmark's baseline: a bare express 5 app with no middleware beyond JSON body parsing, as
 * people write one. Run as its own process (as the service is); listens on a free port of
 * 127.0.0.1, and serves the same app on a second port whose requests and responses are born with
 * the app's prototypes as the service's are (`packages/http/app-messages.ts`): the floor of an
 * express answer. Prints `{"port":N,"bornPort":M}` on one line once both serve.
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

const messages = appMessages();
messages.adopt(app);
const servers: Server[] = [createServer(app), createServer(messages.serverOptions, app)];
const ports = await Promise.all(
  servers.map(
    (server) =>
      new Promise<number>((resolvePort) => {
        server.listen(0, '127.0.0.1', () => resolvePort((server.address() as AddressInfo).port));
      }),
  ),
);
console.log(JSON.stringify({ port: ports[0], bornPort: ports[1] }));

const stop = (): void => {
  let open = servers.length;
  for (const server of servers) {
    server.close(() => {
      if (--open === 0) process.exit(0);
    });
    server.closeAllConnections();
  }
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
