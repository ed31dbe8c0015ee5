/**
 * A small API built with the HTTP kit, for tests: a toy `widget` resource, a route open to public
 * keys, and routes that fail in each way the error envelope covers.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { CardError, NotFoundError } from '../../../../packages/domain/errors.ts';
import { createApp, type AppOptions } from '../../../../packages/http/create-app.ts';
import {
  IdempotencyStore,
  type IdempotencyOptions,
  type IdempotencyRecord,
} from '../../../../packages/http/idempotency.ts';
import { buildOpenApiDocument } from '../../../../packages/http/openapi.ts';
import { p } from '../../../../packages/http/params.ts';
import { createRateLimiter } from '../../../../packages/http/rate-limit.ts';
import { defineRoute, type AnyRouteDefinition, type AuthContext } from '../../../../packages/http/route.ts';
import { listen, type RunningServer } from '../../../../packages/http/serve.ts';
import { createLogger, type Logger } from '../../../../packages/observability/logger.ts';
import { CursorNotFoundError } from '../../../../packages/readstore/document-store.ts';
import { SqliteDocumentStore } from '../../../../packages/readstore/sqlite-document-store.ts';

export const KEYS: Record<string, AuthContext> = {
  sk_test_a: { accountId: 'acct_a', mode: 'test', keyId: 'key_sa', keyKind: 'secret' },
  pk_test_a: { accountId: 'acct_a', mode: 'test', keyId: 'key_pa', keyKind: 'public' },
  sk_test_b: { accountId: 'acct_b', mode: 'test', keyId: 'key_sb', keyKind: 'secret' },
};

export const widgetSchema = z
  .object({ id: z.string(), objectType: z.literal('widget'), amount: z.number().int(), currency: z.string() })
  .meta({ id: 'Widget' });

export interface ToyApi {
  url: string;
  /** How many times each route's handler ran, by `METHOD path` of the route definition. */
  calls: Map<string, number>;
  /** Every log line written so far, parsed. */
  logs: Record<string, unknown>[];
  logger: Logger;
  ready: { value: boolean };
  close(): Promise<void>;
}

export interface ToyApiOptions {
  rateLimit?: { pointsPerSecond: number; burst: number };
  maxBodyBytes?: number;
  idempotency?: IdempotencyOptions;
  /** Extra routes for a test's own purpose. */
  routes?: (calls: Map<string, number>, logger: Logger) => AnyRouteDefinition[];
  strictResponses?: boolean;
  /** Pages (HTML, no API key) below their prefixes. */
  pages?: AppOptions['pages'];
}

function toyRoutes(calls: Map<string, number>, logger: Logger): AnyRouteDefinition[] {
  const count = (name: string) => calls.set(name, (calls.get(name) ?? 0) + 1);
  let serial = 0;
  let flakyRuns = 0;
  const routes: AnyRouteDefinition[] = [
    defineRoute({
      method: 'post',
      path: '/widgets',
      summary: 'Create a widget',
      tag: 'Widgets',
      body: p.object({
        amount: p.int({ min: 1 }),
        currency: p.currency(),
        captured: p.bool().optional(),
        metadata: p.metadata().optional(),
        description: p.string({ max: 10 }).optional(),
        kind: p.enum(['small', 'large']).optional(),
        customerId: p.id('cust').optional(),
        shipping: p
          .object({ name: p.string(), address: p.object({ line1: p.string(), zip: p.string() }).optional() })
          .optional(),
        items: z.array(p.string()).optional(),
        delayMs: p.int({ min: 0, max: 2000 }).optional(),
      }),
      response: widgetSchema,
      async handler({ body, auth, idempotencyKey }) {
        count('POST /widgets');
        logger.info('creating widget');
        if (body.delayMs) await sleep(body.delayMs);
        serial += 1;
        return { id: `wid_${serial}`, objectType: 'widget', accountId: auth.accountId, idempotencyKey, ...body };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/widgets',
      summary: 'List widgets',
      tag: 'Widgets',
      query: p.listQuery({ kind: p.enum(['small', 'large']).optional() }),
      response: z.object({ list: z.array(widgetSchema), hasMore: z.boolean() }),
      async handler({ query }) {
        count('GET /widgets');
        if (query.startingAfterId === 'wid_gone') throw new CursorNotFoundError('startingAfterId', 'wid_gone');
        return { list: [], hasMore: false, query };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/widgets/:widgetId',
      summary: 'Retrieve a widget',
      tag: 'Widgets',
      params: p.object({ widgetId: p.id('wid') }),
      response: widgetSchema,
      async handler({ params }) {
        count('GET /widgets/:widgetId');
        switch (params.widgetId) {
          case 'wid_missing':
            throw new NotFoundError('Widget', params.widgetId);
          case 'wid_declined':
            throw new CardError('insufficient_funds', 'Insufficient funds', {
              chargeId: 'char_1',
              issuerDeclineCode: '51',
            });
          case 'wid_boom':
            throw new Error('database exploded at /srv/app/secret-path.ts');
          default:
            return { id: params.widgetId, objectType: 'widget', amount: 1, currency: 'USD' };
        }
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/widgets/:widgetId',
      summary: 'Delete a widget',
      tag: 'Widgets',
      response: z.object({ id: z.string() }),
      async handler({ params }) {
        return { id: (params as { widgetId: string }).widgetId };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/pings',
      summary: 'Ping with any key',
      tag: 'Pings',
      auth: 'publicOrSecret',
      body: p.object({ note: p.string().optional() }),
      response: z.object({ keyKind: z.string() }),
      async handler({ auth, headers, ip }) {
        count('POST /pings');
        return {
          keyKind: auth.keyKind,
          userAgent: headers['user-agent'],
          hasAuthorization: 'authorization' in headers,
          ip,
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/flaky',
      summary: 'Fails on its first run',
      tag: 'Failures',
      body: p.object({ n: p.int().optional() }),
      response: z.object({ run: z.number() }),
      async handler() {
        count('POST /flaky');
        flakyRuns += 1;
        if (flakyRuns === 1) throw new Error('transient failure');
        return { run: flakyRuns };
      },
    }),
  ];
  return routes;
}

export async function startToyApi(options: ToyApiOptions = {}): Promise<ToyApi> {
  const calls = new Map<string, number>();
  const logs: Record<string, unknown>[] = [];
  const logStream = new PassThrough();
  let pending = '';
  logStream.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
  });
  const logger = createLogger('debug', logStream);
  const store = new SqliteDocumentStore(':memory:');
  const ready = { value: true };
  const routes = [...toyRoutes(calls, logger), ...(options.routes?.(calls, logger) ?? [])];
  const appOptions: AppOptions = {
    routes,
    authenticate: async (apiKey) => KEYS[apiKey] ?? null,
    idempotency: new IdempotencyStore(store.collection<IdempotencyRecord>('idempotency'), {
      fingerprintKey: Buffer.alloc(32, 1),
      ...options.idempotency,
    }),
    rateLimiter: createRateLimiter(options.rateLimit ?? { pointsPerSecond: 10_000, burst: 10_000 }),
    logger,
    maxBodyBytes: options.maxBodyBytes ?? 100 * 1024,
    health: { ready: async () => ready.value },
    openApiDocument: () => buildOpenApiDocument(routes, { title: 'Toy API', version: '1.0.0' }),
    // An unauthenticated, non-JSON route, like offer images.
    unauthenticatedRoutes: [
      {
        path: '/pictures/:file',
        handler: (req, res) => {
          if (req.params.file !== 'ok.txt') throw new NotFoundError('Picture', String(req.params.file));
          res.type('text/plain').send('picture');
        },
      },
    ],
    ...(options.strictResponses !== undefined ? { strictResponses: options.strictResponses } : {}),
    ...(options.pages ? { pages: options.pages } : {}),
  };
  const server: RunningServer = await listen(createApp(appOptions), 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${server.port}`,
    calls,
    logs,
    logger,
    ready,
    async close() {
      await server.close(1000);
      await store.close();
    },
  };
}

export interface CallOptions {
  /** API key sent with HTTP Basic; null sends no Authorization header. Default sk_test_a. */
  key?: string | null;
  json?: unknown;
  form?: string;
  /** A raw body, sent with the given content type. */
  body?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back
}

export const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

export async function call(api: ToyApi, method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? 'sk_test_a' : options.key;
  if (key !== null && headers.authorization === undefined) headers.authorization = basic(key);
  let body: string | Buffer | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  } else if (options.form !== undefined) {
    body = options.form;
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (options.body !== undefined) {
    body = options.body;
    if (options.contentType) headers['content-type'] = options.contentType;
  }
  const response = await fetch(`${api.url}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}
