/**
 * A small HTTP client for API tests: real requests, JSON or form bodies, Basic auth. With a
 * live-mode key it sends `X-Forwarded-Proto: https` like a TLS-terminating proxy in front of the
 * service would (test services trust loopback proxies), so live-mode requests pass the HTTPS
 * requirement; test-mode requests stay plain HTTP from loopback, as a developer's would, so the
 * URLs the service builds from the request (redirect pages, file downloads) are reachable by the
 * test. Tests of the HTTPS requirement make their own requests.
 */
export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded (nested keys already in `a[b]` form). */
  form?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** API key; defaults to the client's key. Pass null for no Authorization header. */
  key?: string | null;
}

/** A value, or a function read at each request: see useService, whose service starts after its client exists. */
type Late<T> = T | (() => T);

export class ApiClient {
  constructor(
    private readonly target: Late<string>,
    private readonly defaultKey: Late<string>,
  ) {}

  /** The service's URL; a client of useService follows the service to its new port across restarts. */
  get baseUrl(): string {
    return typeof this.target === 'string' ? this.target : this.target();
  }

  get key(): string {
    return typeof this.defaultKey === 'string' ? this.defaultKey : this.defaultKey();
  }

  withKey(key: string): ApiClient {
    return new ApiClient(this.target, key);
  }

  get<T = Record<string, unknown>>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path, options);
  }

  post<T = Record<string, unknown>>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, options);
  }

  delete<T = Record<string, unknown>>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('DELETE', path, options);
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const key = options.key === undefined ? this.key : options.key;
    const live = key !== null && /^(sk|pk)_live_/.test(key);
    const headers: Record<string, string> = { ...(live ? { 'x-forwarded-proto': 'https' } : {}), ...options.headers };
    if (key !== null) headers.authorization = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const url = new URL(path, this.baseUrl);
    for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    // A file download (or any other non-JSON answer) comes back as its text.
    const json = /json/.test(response.headers.get('content-type') ?? 'application/json');
    const answer: unknown = text ? (json ? JSON.parse(text) : text) : null;
    return { status: response.status, headers: response.headers, body: answer as T };
  }
}
