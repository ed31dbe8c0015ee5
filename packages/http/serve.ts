import { readFileSync } from 'node:fs';
import { createServer, STATUS_CODES, type RequestListener, type Server } from 'node:http';
import { createServer as createSecureServer, type Server as SecureServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AppMessages } from './app-messages.ts';
import type { ErrorEnvelope } from './errors.ts';

export interface TlsFiles {
  /** PEM certificate, with its chain. */
  certFile: string;
  /** PEM private key. */
  keyFile: string;
}

export interface ServeOptions {
  /** Serve HTTPS with these files instead of HTTP. */
  tls?: TlsFiles;
  /**
   * Node's defaults let a slow client hold a socket for minutes (300 s for a request): `headers`
   * bounds the time to send the request headers, `request` the whole request (body included),
   * `keepAlive` an idle connection between requests.
   */
  timeoutsMs?: { headers: number; request: number; keepAlive: number };
  /**
   * Hears the server's errors once it listens (a connection it could not accept, e.g. out of
   * file descriptors): reported, the server keeps serving the connections it has and accepts new
   * ones when it can. Without it they are only ignored; an 'error' event unheard would end the process.
   */
  onError?: (error: Error) => void;
  /** The classes of the server's requests and responses, for an express app (`app-messages.ts`). */
  messages?: AppMessages;
}

export interface RunningServer {
  server: Server;
  /** The port actually bound (useful with port 0). */
  port: number;
  protocol: 'http' | 'https';
  /**
   * Re-reads the certificate and key (after a renewal); new connections use them, open ones keep
   * theirs. Throws, keeping the current ones, when the files cannot be read or do not fit.
   */
  reloadTls(): void;
  /**
   * Stops accepting connections and lets in-flight requests finish; after timeoutMs the
   * remaining connections are cut. Resolves once the server is closed.
   */
  close(timeoutMs: number): Promise<void>;
}

export function listen(
  app: RequestListener,
  port: number,
  host?: string,
  options: ServeOptions = {},
): Promise<RunningServer> {
  const { tls, timeoutsMs } = options;
  // Node looks for timed-out requests every 30 s by default: far too coarse for these limits.
  const checking = { connectionsCheckingInterval: Math.min(1000, timeoutsMs?.headers ?? 30_000) };
  const messages = options.messages?.serverOptions;
  const server: Server = tls
    ? createSecureServer({ ...readTls(tls), ...checking, ...messages }, app)
    : createServer({ ...checking, ...messages }, app);
  server.on('clientError', answerClientError);
  if (timeoutsMs) {
    server.headersTimeout = timeoutsMs.headers;
    server.requestTimeout = timeoutsMs.request;
    server.keepAliveTimeout = timeoutsMs.keepAlive;
  }
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      server.on('error', options.onError ?? (() => undefined));
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        protocol: tls ? 'https' : 'http',
        reloadTls() {
          if (!tls) return;
          (server as SecureServer).setSecureContext(readTls(tls));
        },
        close: (timeoutMs) => closeGracefully(server, timeoutMs),
      });
    });
  });
}

/** Node's own answers to requests its HTTP parser refuses, by error code; 400 for the others. */
const CLIENT_ERRORS: Record<string, [status: number, message: string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Invalid request: the request headers are too large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Invalid request: the chunk extensions are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Invalid request: the request was not received in time'],
};

/**
 * Requests that Node's HTTP parser refuses before the app sees them (oversized headers, broken
 * chunked framing, a body cut short, a request too slow to arrive) get Node's status, with the
 * error envelope as body instead of none. As Node does, nothing is written on a socket that is
 * gone or already carries an answer.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'Invalid request: the request is not valid HTTP'];
  const envelope: ErrorEnvelope = { error: { type: 'invalid_request', message } };
  const body = JSON.stringify(envelope);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function readTls(files: TlsFiles): { cert: Buffer; key: Buffer } {
  return { cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) };
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
