import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RunningServer {
  server: Server;
  /** The port actually bound (useful with port 0). */
  port: number;
  /**
   * Stops accepting connections and lets in-flight requests finish; after timeoutMs the
   * remaining connections are cut. Resolves once the server is closed.
   */
  close(timeoutMs: number): Promise<void>;
}

export function listen(app: Express, port: number, host?: string): Promise<RunningServer> {
  const server = createServer(app);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        close: (timeoutMs) => closeGracefully(server, timeoutMs),
      });
    });
  });
}

const IDLE_SWEEP_MS = 50;

function closeGracefully(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
    // Keep-alive connections would hold close() open until they time out: drop each one as soon
    // as it has no request in flight.
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    server.close(() => {
      clearTimeout(deadline);
      clearInterval(sweep);
      resolve();
    });
  });
}
