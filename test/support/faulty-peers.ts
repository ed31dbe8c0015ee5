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
 * What a proxy in front of a peer does with each request: `pass` forwards it and returns the
 * answer; `fail` forwards it and answers 500 once the peer has done the work (a processor that took
 * the payment and then failed to answer); `hang-after` forwards it and never answers (the answer
 * lost past the timeout); `hang-before` never forwards and never answers (the request lost).
 */
export type ProxyMode = 'pass' | 'fail' | 'hang-after' | 'hang-before';

/** An HTTP proxy in front of a real peer, failing as its `mode` says. */
export async function faultyProxy(
  target: () => string,
  initial: ProxyMode,
): Promise<
  FaultyPeer & {
    mode: ProxyMode;
    forwarded: string[];
    /** When set, only the requests (`POST /path`) it holds for fail as `mode` says; the others pass. */
    failing: ((request: string) => boolean) | null;
  }
> {
  const requests: string[] = [];
  const forwarded: string[] = [];
  const state: { mode: ProxyMode; failing: ((request: string) => boolean) | null } = { mode: initial, failing: null };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const line = `${request.method} ${request.url}`;
      const mode = state.failing && !state.failing(line) ? 'pass' : state.mode;
      requests.push(line);
      if (mode === 'hang-before') return;
      forwarded.push(`${request.method} ${request.url}`);
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'idempotency-key', 'accept'])
        if (typeof request.headers[name] === 'string') headers[name] = request.headers[name];
      fetch(`${target()}${request.url}`, {
        method: request.method,
        headers,
        ...(request.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
      })
        .then(async (answer) => {
          const body = await answer.text();
          if (mode === 'hang-after') return;
          if (mode === 'fail') {
            response.writeHead(500, { 'content-type': 'application/json' });
            response.end('{"error":{"type":"api_error","message":"Internal error"}}');
            return;
          }
          response.writeHead(answer.status, { 'content-type': 'application/json' });
          response.end(body);
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
    forwarded,
    get mode() {
      return state.mode;
    },
    set mode(value: ProxyMode) {
      state.mode = value;
    },
    get failing() {
      return state.failing;
    },
    set failing(value: ((request: string) => boolean) | null) {
      state.failing = value;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
