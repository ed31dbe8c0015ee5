/**
 * An endpoint that accepts TCP connections and never answers: it reads nothing back, writes
 * nothing, and holds every connection open until closed. What a webhook receiver that hangs looks
 * like from the sending side.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';

export interface HangingEndpoint {
  /** `http://127.0.0.1:<port>/hooks` */
  readonly url: string;
  /** Connections accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

export async function startHangingEndpoint(): Promise<HangingEndpoint> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
    // Swallow whatever arrives: the request is read by the kernel, never answered.
    socket.resume();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    get accepted() {
      return accepted;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
