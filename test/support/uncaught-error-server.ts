import { EventEmitter } from 'node:events';
import express from 'express';
import { listen } from '../../packages/http/serve.ts';
import { assignRequestId } from '../../packages/http/request-id.ts';
import { keepServingAfterUncaughtErrors } from '../../packages/http/uncaught-errors.ts';
import { createLogger } from '../../packages/observability/logger.ts';

/**
 * A server with routes that fail where nothing catches it, run as its own process by
 * test/unit/http/uncaught-errors.test.ts: the last line must keep it serving.
 */
const app = express();
app.use(assignRequestId());
app.get('/unheard-error-event', () => {
  const emitter = new EventEmitter();
  setImmediate(() => emitter.emit('error', new Error('nobody listens')));
});
app.get('/unheard-rejection', () => {
  void Promise.reject(new Error('nobody waits for this'));
});
app.get('/ok', (_req, res) => {
  res.json({ ok: true });
});
const running = await listen(app, 0, '127.0.0.1');
keepServingAfterUncaughtErrors(createLogger('info'));
console.log(JSON.stringify({ port: running.port }));
