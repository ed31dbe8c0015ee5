import { connect } from 'node:net';

/** What came back for a raw request: nothing at all, or a status line, headers and body. */
export type RawAnswer =
  | { answered: false; error: string }
  | { answered: true; status: number; headers: Record<string, string>; body: string };

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /**
   * Send `Content-Length: body.length` (default), a larger one (the body then stops short), or
   * none (the headers say how the body is framed, e.g. Transfer-Encoding).
   */
  contentLength?: 'actual' | 'larger' | 'none';
  /** Close our side after the bytes, as a client that gives up mid-body would. */
  hangUp?: boolean;
}

/**
 * Sends exactly these bytes over a fresh TCP connection (`Connection: close`) and reads the answer
 * until the server closes it: unlike fetch, it can send what no well-behaved client would (bodies
 * shorter than their Content-Length, broken chunked framing, oversized headers).
 */
export function sendRaw(baseUrl: string, request: RawRequest, deadlineMs: number): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const lengths = { actual: request.body.length, larger: request.body.length + 1000, none: undefined };
  const contentLength = lengths[request.contentLength ?? 'actual'];
  const head = [
    `${request.method} ${request.path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    'Connection: close',
    ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
    ...(contentLength === undefined ? [] : [`Content-Length: ${contentLength}`]),
  ].join('\r\n');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (answer: RawAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      socket.destroy();
      resolve(answer);
    };
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), request.body]));
      if (request.hangUp) socket.end();
    });
    const deadline = setTimeout(
      () => settle({ answered: false, error: `no answer within ${deadlineMs} ms` }),
      deadlineMs,
    );
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A reset after the answer arrived still leaves the answer to read.
    const finish = (error?: Error) => {
      const answer = parseAnswer(Buffer.concat(chunks));
      settle(answer ?? { answered: false, error: error ? error.message : 'connection closed without an answer' });
    };
    socket.on('end', () => finish());
    socket.on('error', finish);
    socket.on('close', () => finish());
  });
}

function parseAnswer(bytes: Buffer): RawAnswer | null {
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const [statusLine, ...headerLines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
  if (!status) return null;
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(end + 4);
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') body = unchunked(body);
  return { answered: true, status: Number(status[1]), headers, body: body.toString('utf8') };
}

function unchunked(bytes: Buffer): Buffer {
  const chunks: Buffer[] = [];
  let rest = bytes;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = lineEnd === -1 ? 0 : parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) return Buffer.concat(chunks);
    chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
    rest = rest.subarray(lineEnd + 2 + size + 2);
  }
}
