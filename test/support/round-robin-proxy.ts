import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small load balancer for tests: each request goes to the next of its targets in turn. A target
 * that refuses the connection (its process is down or restarting) is skipped for the next one,
 * as a load balancer's health check would; the request never reached it, so that is safe for
 * writes too. A connection cut after the request was sent answers 502: whether that write
 * happened is for the client's idempotency key to settle.
 */
export interface RoundRobinProxy {
  readonly url: string;
  /** Replaces the target of `name` (a restarted process listens on a new port). */
  setTarget(name: string, baseUrl: string): void;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(targets: Record<string, string>): Promise<RoundRobinProxy> {
  const current = new Map(Object.entries(targets));
  let next = 0;

  const send = (incoming: IncomingMessage, body: Buffer, target: string): Promise<IncomingMessage> =>
    new Promise((resolve, reject) => {
      const outgoing = forward(
        new URL(incoming.url ?? '/', target),
        { method: incoming.method, headers: { ...incoming.headers, host: new URL(target).host } },
        resolve,
      );
      outgoing.once('error', reject);
      outgoing.end(body);
    });

  const handle = async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    // Every target in turn, a few rounds: a restarting process is back within seconds.
    for (let tried = 0; tried < current.size * 20; tried++) {
      const targetList = [...current.values()];
      const target = targetList[next++ % targetList.length]!;
      try {
        const answer = await send(incoming, body, target);
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        for await (const chunk of answer) response.write(chunk as Buffer);
        response.end();
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') break;
        if (tried % current.size === current.size - 1) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { type: 'gateway_error', message: 'no API process answered' } }));
  };

  const server: Server = createServer((incoming, response) => {
    handle(incoming, response).catch(() => response.destroy());
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setTarget: (name, baseUrl) => void current.set(name, baseUrl),
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
