import { ProcessorOutcomeUnknown, ProcessorUnreachable } from '../processor.ts';

/** An answer of the Shift4 API: its status and JSON body (the error envelope for 4xx). */
export interface Shift4Answer<Body = Record<string, unknown>> {
  status: number;
  body: Body;
}

export interface Shift4Error {
  error?: {
    type?: string;
    code?: string;
    message?: string;
    chargeId?: string;
    creditId?: string;
    issuerDeclineCode?: string;
  };
}

/**
 * Error codes of Node's fetch (undici) and of the socket layer that prove the request never left:
 * no connection was made, or the TLS handshake failed before a byte of the request was sent.
 */
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/**
 * The Shift4 API over HTTP(S) with Node's fetch: HTTP Basic authentication with the secret key,
 * form-encoded bodies, a timeout per request. Failures are classified for the processor port:
 * never sent (connection refused, DNS, TLS; or a refusal that proves nothing was done: 401, 403,
 * 429) is `ProcessorUnreachable`; anything after the request may have arrived (timeout, reset,
 * 5xx, 409 while the first request with the key still runs) is `ProcessorOutcomeUnknown`.
 * 2xx and other 4xx answers are returned. The secret key and card data never appear in an error.
 */
export class Shift4Client {
  private readonly authorization: string;

  constructor(
    private readonly baseUrl: string,
    secretKey: string,
    private readonly timeoutMs: number,
  ) {
    this.authorization = `Basic ${Buffer.from(`${secretKey}:`).toString('base64')}`;
  }

  async post<Body>(
    path: string,
    form: Record<string, string | number | boolean | undefined>,
    idempotencyKey?: string,
  ): Promise<Shift4Answer<Body & Shift4Error>> {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(form)) if (value !== undefined) body.set(name, String(value));
    return this.send('POST', path, {
      body,
      headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {},
    });
  }

  async get<Body>(path: string, query: Record<string, string> = {}): Promise<Shift4Answer<Body & Shift4Error>> {
    const search = new URLSearchParams(query).toString();
    return this.send('GET', search ? `${path}?${search}` : path, { headers: {} });
  }

  private async send<Body>(
    method: 'GET' | 'POST',
    path: string,
    request: { body?: URLSearchParams; headers: Record<string, string> },
  ): Promise<Shift4Answer<Body>> {
    const what = `${method} ${path.split('?')[0]}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { Authorization: this.authorization, Accept: 'application/json', ...request.headers },
        ...(request.body ? { body: request.body } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
      text = await response.text();
    } catch (error) {
      const code = failureCode(error);
      if (code !== null && NEVER_SENT.has(code))
        throw new ProcessorUnreachable(`Shift4 ${what} could not reach the processor (${code})`);
      const reason = isTimeout(error) ? `no answer within ${this.timeoutMs} ms` : (code ?? 'connection lost');
      throw new ProcessorOutcomeUnknown(`Shift4 ${what}: ${reason}`);
    }
    if (response.status >= 500 || response.status === 409)
      throw new ProcessorOutcomeUnknown(`Shift4 ${what} answered ${response.status}`);
    if (response.status === 401 || response.status === 403 || response.status === 429)
      throw new ProcessorUnreachable(`Shift4 ${what} was refused (${response.status} ${errorType(text)})`);
    let body: Body;
    try {
      body = JSON.parse(text) as Body;
    } catch {
      // A 2xx or 4xx we cannot read may still have done what was asked.
      throw new ProcessorOutcomeUnknown(`Shift4 ${what} answered ${response.status} without JSON`);
    }
    return { status: response.status, body };
  }
}

/** The innermost error code of a fetch failure (undici wraps the socket's error in `cause`). */
function failureCode(error: unknown): string | null {
  let current: unknown = error;
  let code: string | null = null;
  for (let depth = 0; depth < 5 && current instanceof Object; depth++) {
    const own = (current as { code?: unknown }).code;
    if (typeof own === 'string') code = own;
    current = (current as { cause?: unknown }).cause;
  }
  return code;
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

function errorType(text: string): string {
  try {
    return (JSON.parse(text) as Shift4Error).error?.type ?? 'error';
  } catch {
    return 'error';
  }
}
