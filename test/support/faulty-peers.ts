import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';

/** A local server to stand in for a processor that fails: its base URL and how to stop it. */
export interface FaultyPeer {
  url: string;
  /** Requests it received (method and path), in order. */
  requests: string[];
  close(): Promise<void>;
}

/** A port nothing listens on: connections to it are refused. */
export async function closedPort(): Promise<string> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Accepts connections and reads requests but never answers: every request runs into its timeout. */
export async function hangingPeer(): Promise<FaultyPeer> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const server: TcpServer = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('data', (chunk: Buffer) => {
      const line = chunk.toString('latin1').split('\r\n')[0]!;
      if (/^[A-Z]+ \//.test(line)) requests.push(line.split(' ').slice(0, 2).join(' '));
    });
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * An HTTP proxy in front of a real peer: it forwards each request to the peer, and while `failing`
 * is set answers 500 to the client after the peer has done the work (a processor that took the
 * payment and then failed to answer).
 */
export async function failingProxy(target: () => string): Promise<FaultyPeer & { failing: boolean }> {
  const requests: string[] = [];
  const state = { failing: true };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push(`${request.method} ${request.url}`);
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'idempotency-key', 'accept'])
        if (typeof request.headers[name] === 'string') headers[name] = request.headers[name];
      // The tests' peer trusts a TLS-terminating proxy on loopback, as this stands for one.
      headers['x-forwarded-proto'] = 'https';
      fetch(`${target()}${request.url}`, {
        method: request.method,
        headers,
        ...(request.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
      })
        .then(async (answer) => {
          const body = await answer.text();
          if (state.failing) {
            response.writeHead(500, { 'content-type': 'application/json' });
            response.end('{"error":{"type":"api_error","message":"Internal error"}}');
          } else {
            response.writeHead(answer.status, { 'content-type': 'application/json' });
            response.end(body);
          }
        })
        .catch(() => {
          response.writeHead(502);
          response.end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
