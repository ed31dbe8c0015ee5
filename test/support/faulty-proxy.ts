/**
 * An HTTP proxy in front of a processor's test peer that misbehaves on chosen requests the way a
 * processor or the network between can: it hangs without passing the request on, passes it on and
 * then never answers (a lost answer: the peer did the work), or answers in the peer's place (a 500;
 * an answer the real processor documents that the peer cannot give).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = 'pass' | 'hang' | 'lose-answer' | { status: number; body: unknown };

export interface FaultyProxy {
  url: string;
  /** Which fault each request meets, by method and path (query string excluded). */
  faultFor: (method: string, path: string) => Fault;
  /** Requests that reached the peer: `METHOD /path` and the idempotency key they carried. */
  forwarded: { request: string; idempotencyKey: string | null }[];
  stop(): Promise<void>;
}

export async function startFaultyProxy(target: string): Promise<FaultyProxy> {
  const proxy: FaultyProxy = { url: '', faultFor: () => 'pass', forwarded: [], stop: async () => {} };
  const server = createServer((request, response) => {
    void handle(request, response).catch(() => response.destroy());
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const url = request.url ?? '/';
    const fault = proxy.faultFor(method, url.split('?')[0] ?? url);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (fault === 'hang') return;
    if (typeof fault === 'object') {
      response.writeHead(fault.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(fault.body));
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers.set(name, value);
    }
    proxy.forwarded.push({ request: `${method} ${url.split('?')[0]}`, idempotencyKey: headers.get('idempotency-key') });
    const answer = await fetch(`${target}${url}`, {
      method,
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await answer.arrayBuffer());
    if (fault === 'lose-answer') return;
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    response.end(body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.stop = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return proxy;
}
