/**
 * A real HTTP server on 127.0.0.1 that receives webhooks, for API tests: it records every request
 * (raw body, headers, arrival time) and answers with whatever status the test asks for.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when the body had arrived. */
  receivedAt: number;
  /** The status this receiver answered. */
  answered: number | 'no answer';
  /** Date.now() when the answer was written, if it was. */
  answeredAt?: number;
}

/**
 * Answers the n-th request (0-based, over the receiver's life) with a status, a status after a
 * while or once the test lets it (`when`), or never ('hang').
 */
export type Responder = (
  request: ReceivedWebhook,
  index: number,
) => number | 'hang' | { status: number; afterMs: number } | { status: number; when: Promise<void> };

export interface WebhookReceiver {
  readonly port: number;
  /** `http://127.0.0.1:<port>/hooks` */
  readonly url: string;
  readonly received: ReceivedWebhook[];
  respondWith(responder: Responder): void;
  /** Resolves once `predicate` holds for what was received; rejects after timeoutMs. */
  waitFor(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  /** Stops listening (connection refused from then on); `listen()` takes the same port again. */
  close(): Promise<void>;
  listen(): Promise<void>;
}

export async function startWebhookReceiver(
  options: { port?: number; listening?: boolean } = {},
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let responder: Responder = () => 200;
  let server: Server | null = null;
  const hanging = new Set<() => void>();
  let port = options.port ?? (await freePort());

  const newServer = (): Server =>
    createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const webhook: ReceivedWebhook = {
          path: request.url ?? '',
          method: request.method ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          receivedAt: Date.now(),
          answered: 'no answer',
        };
        const answer = responder(webhook, received.length);
        received.push(webhook);
        if (answer === 'hang') {
          hanging.add(() => response.destroy());
          return;
        }
        const status = typeof answer === 'number' ? answer : answer.status;
        const respond = () => {
          webhook.answered = status;
          webhook.answeredAt = Date.now();
          response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'not now');
        };
        if (typeof answer === 'number') respond();
        else if ('when' in answer) void answer.when.then(respond);
        else setTimeout(respond, answer.afterMs);
      });
    });

  const receiver: WebhookReceiver = {
    get port() {
      return port;
    },
    get url() {
      return `http://127.0.0.1:${port}/hooks`;
    },
    received,
    respondWith(next) {
      responder = next;
    },
    async waitFor(predicate, timeoutMs = 20_000, what = 'webhooks') {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; received ${received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async close() {
      const closing = server;
      server = null;
      if (!closing) return;
      for (const release of hanging) release();
      hanging.clear();
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    async listen() {
      if (server) return;
      const next = newServer();
      await new Promise<void>((resolve, reject) => {
        next.once('error', reject);
        next.listen(port, '127.0.0.1', () => resolve());
      });
      port = (next.address() as AddressInfo).port;
      server = next;
    },
  };
  if (options.listening !== false) await receiver.listen();
  return receiver;
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
