/**
 * A webhook receiver on a thread of its own, for tests whose own thread is busy for seconds at a
 * time (the card data scan after each kill reads the whole data directory; the CLI runs in the
 * test process): it answers every request 200 at once, whatever the test's thread is doing, as a
 * merchant's server, a process of its own, does. A receiver on the test's thread would leave the
 * service's attempts unanswered meanwhile, and they would rightly be counted as timed out and
 * retried.
 */
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import type { ReceivedWebhook } from './webhook-receiver.ts';

export interface WebhookReceiverThread {
  /** `http://127.0.0.1:<port>/hooks` */
  readonly url: string;
  /** What arrived so far, each stamped with the time its body had arrived, on the receiver's thread. */
  readonly received: ReceivedWebhook[];
  close(): Promise<void>;
}

type ThreadMessage = { listening: AddressInfo } | { received: ReceivedWebhook };

export async function startWebhookReceiverThread(): Promise<WebhookReceiverThread> {
  const received: ReceivedWebhook[] = [];
  const thread = new Worker(RECEIVER, {
    eval: true,
    // Not the parent's flags (a TypeScript loader): the receiver is plain JavaScript.
    execArgv: [],
  });
  const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    thread.once('error', reject);
    thread.on('message', (message: ThreadMessage) => {
      if ('listening' in message) resolve(message.listening.port);
      else received.push(message.received);
    });
  });
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    async close() {
      thread.postMessage('stop');
      await exited;
    },
  };
}

/** The thread: an HTTP server that answers 200 and reports each request once its body is in. */
const RECEIVER = `
const { parentPort } = require('node:worker_threads');
const { createServer } = require('node:http');
const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const receivedAt = Date.now();
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    parentPort.postMessage({
      received: {
        path: request.url || '',
        method: request.method || '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt,
        answered: 200,
      },
    });
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ listening: server.address() }));
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  server.closeAllConnections();
  server.close(() => parentPort.close());
});
`;
