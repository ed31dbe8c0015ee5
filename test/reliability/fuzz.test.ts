import { expect } from 'chai';
import fc from 'fast-check';
import { malformedBodies, MALFORMED_BODY_LIMITS } from '../support/malformed-bodies.ts';
import { cardDetails } from '../support/payments.ts';
import { sendRaw } from '../support/raw-http.ts';
import { useService } from '../support/use-service.ts';
import { scale, suiteTimeoutMs } from './scale.ts';

/** No request may take longer than this: a hang is a failure like a 5xx. */
const REQUEST_DEADLINE_MS = 15_000;
const CONCURRENCY = 6;
/**
 * Requests drawn at a time. The service runs in this process: drawing all of a soak run's at once
 * stalls its event loop (and the client's) for longer than an idle connection is kept alive
 * (HTTP_KEEP_ALIVE_TIMEOUT_MS, 5 s), so that the first requests went out on pooled connections the
 * service was closing that moment, and were reset.
 */
const DRAWN_AT_A_TIME = 250;

interface FuzzRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const PARAMETER_NAMES = [
  'amount',
  'currency',
  'card',
  'customerId',
  'metadata',
  'description',
  'email',
  'number',
  'expMonth',
  'expYear',
  'cvc',
  'captured',
  'planId',
  'quantity',
  'trialEnd',
  'url',
  'events',
  'ruleType',
  'fingerprint',
  'cardNumber',
  'limit',
  'startingAfterId',
  'created',
  'frozenTime',
  'evidence',
  'threeDSecure',
  '__proto__',
  'constructor',
];

/** Values that have broken parsers elsewhere: big, negative, odd types, card-like, escapes. */
const nastyScalar = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    '9007199254740993',
    'NaN',
    'null',
    'true',
    '4242424242424242',
    '%E0%A4%A',
    '\u0000',
    '../../etc/passwd',
    'tok_' + 'a'.repeat(300),
    'cust_AAAAAAAAAAAAAAAAAAAAAAAA',
  ),
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);

const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    nastyScalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...PARAMETER_NAMES), fc.string({ maxLength: 12 })), tie('value'), {
      maxKeys: 5,
    }),
  ),
})).value;

const bodyObject = fc.dictionary(fc.oneof(fc.constantFrom(...PARAMETER_NAMES), fc.string({ maxLength: 12 })), value, {
  maxKeys: 8,
});

/** `count` samples of the arbitrary, drawn a slice at a time (slice n with seed `seed + n`), letting timers run between slices. */
async function drawn<T>(arbitrary: fc.Arbitrary<T>, count: number, seed: number): Promise<T[]> {
  const samples: T[] = [];
  for (let slice = 0; samples.length < count; slice++) {
    const numRuns = Math.min(DRAWN_AT_A_TIME, count - samples.length);
    samples.push(...fc.sample(arbitrary, { numRuns, seed: seed + slice }));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return samples;
}

/** Why a request got no answer, as fetch says it: its error and the socket's (a reset, a refused connection, the deadline). */
function failureOf(error: unknown): string {
  const { name, message, cause } = error as Error & { cause?: { code?: string; message?: string } };
  const why = cause?.code ?? cause?.message;
  return `${name}: ${message}${why ? ` (${why})` : ''}`;
}

function formOf(object: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(object).flatMap(([key, field]) => {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (field !== null && typeof field === 'object') return formOf(field as Record<string, unknown>, name);
    return [`${encodeURIComponent(name)}=${encodeURIComponent(String(field))}`];
  });
}

describe(`fuzzing the running service (${scale.fuzzRequests} requests)`, function () {
  this.timeout(suiteTimeoutMs);
  const { api, service, keys } = useService({
    env: { RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' },
  });
  let templates: { method: FuzzRequest['method']; path: string }[] = [];
  let realIds: string[] = [];

  before('an object of each kind the paths can name, and the paths', async () => {
    const customer = await api.post<{ id: string; defaultCardId: string }>('/customers', {
      json: { email: 'fuzz@example.com', card: cardDetails('4242424242424242') },
    });
    const charge = await api.post<{ id: string }>('/charges', {
      json: { amount: 100, currency: 'EUR', customerId: customer.body.id },
    });
    realIds = [customer.body.id, customer.body.defaultCardId, charge.body.id];
    const openApi = (await api.get<{ paths: Record<string, Record<string, unknown>> }>('/openapi.json')).body;
    templates = Object.entries(openApi.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => ['get', 'post', 'delete'].includes(method))
        .map((method) => ({ method: method.toUpperCase() as FuzzRequest['method'], path })),
    );
    templates.push({ method: 'GET', path: '/cross-sale-offers/images/{file}' }, { method: 'GET', path: '/health' });
  });

  it('answers every request within the deadline, never with a 5xx, always in the JSON error envelope', async () => {
    const segment = fc.oneof(
      fc.constantFrom(...realIds),
      fc.webSegment(),
      fc.string({ maxLength: 30 }).map(encodeURIComponent),
      fc.constantFrom('%', '%zz', '%E0%A4%A', '..', 'img_x.png', 'char_4000000000000077'),
    );
    const request: fc.Arbitrary<FuzzRequest> = fc
      .record({
        template: fc.constantFrom(...templates),
        segments: fc.array(segment, { minLength: 3, maxLength: 3 }),
        key: fc.oneof(
          { arbitrary: fc.constant<string | null>(keys.testSecretKey), weight: 6 },
          {
            arbitrary: fc.constantFrom<string | null>(keys.testPublicKey, keys.liveSecretKey, null, 'sk_test_x'),
            weight: 2,
          },
        ),
        authorization: fc.oneof(
          { arbitrary: fc.constant(null), weight: 12 },
          { arbitrary: fc.constantFrom('Basic', 'Bearer x y', 'Basic !!!', 'Digest a'), weight: 1 },
        ),
        encoding: fc.constantFrom('json', 'form', 'raw', 'none'),
        body: bodyObject,
        raw: fc.string({ maxLength: 200 }),
        contentType: fc.constantFrom(
          'application/json',
          'application/x-www-form-urlencoded',
          'text/plain',
          'application/json; charset=latin1',
          'multipart/form-data',
        ),
        query: fc.option(fc.string({ maxLength: 60 }), { freq: 3 }),
        idempotencyKey: fc.option(fc.string({ maxLength: 300 }), { freq: 4 }),
      })
      .map(({ template, segments, key, authorization, encoding, body, raw, contentType, query, idempotencyKey }) => {
        let index = 0;
        let path = template.path.replace(/\{[^}]+\}/g, () => segments[index++ % segments.length]!);
        if (query !== null) path += `?${query}`;
        const headers: Record<string, string> = { 'x-forwarded-proto': 'https' };
        if (key !== null) headers.authorization = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
        if (authorization !== null) headers.authorization = authorization;
        if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey.replace(/[^\x20-\x7e]/g, '');
        const result: FuzzRequest = { method: template.method, path, headers };
        if (template.method === 'POST' && encoding !== 'none') {
          headers['content-type'] =
            encoding === 'json'
              ? 'application/json'
              : encoding === 'form'
                ? 'application/x-www-form-urlencoded'
                : contentType;
          result.body = encoding === 'json' ? JSON.stringify(body) : encoding === 'form' ? formOf(body).join('&') : raw;
        }
        return result;
      });

    const samples = await drawn(request, scale.fuzzRequests, Number(process.env.FUZZ_SEED ?? 42));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < samples.length) {
        const sample = samples[next++]!;
        const started = Date.now();
        try {
          const response = await fetch(new URL(sample.path, service.baseUrl), {
            method: sample.method,
            headers: sample.headers,
            body: sample.body,
            signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
          });
          const text = await response.text();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const isImage = response.headers.get('content-type') === 'image/png';
          let envelope = true;
          if (response.status >= 400 && !isImage) {
            try {
              const parsed = JSON.parse(text) as { error?: { type?: unknown; message?: unknown } };
              envelope = typeof parsed.error?.type === 'string' && typeof parsed.error.message === 'string';
            } catch {
              envelope = false;
            }
          }
          if (response.status >= 500 || !envelope)
            failures.push(`${response.status} ${sample.method} ${sample.path} ${text.slice(0, 200)}`);
        } catch (error) {
          failures.push(`${failureOf(error)} after ${Date.now() - started} ms: ${sample.method} ${sample.path}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    // The figures of the run, for the record.
    console.log(
      `      fuzz: ${samples.length} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}, ` +
        `${failures.length} failures (5xx, no answer within ${REQUEST_DEADLINE_MS} ms, or outside the error envelope)`,
    );
    expect(failures.slice(0, 20)).to.deep.equal([]);
    expect((await fetch(`${service.baseUrl}/health`)).status, 'still serving').to.equal(200);
  });
});

/** The pages' POST routes, which read their bodies with their own parsers. */
const PAGE_POSTS = [
  '/console/login',
  '/payment-redirects/client_char_fuzz',
  '/checkout/pay',
  '/checkout/payment-status',
  '/checkout/cross-sale-purchases',
  '/checkout/remembered-cards/code',
  '/checkout/remembered-cards/confirm',
  '/three-d-secure/challenge',
];

describe('malformed bodies at every route', function () {
  this.timeout(suiteTimeoutMs);
  const { api, service, keys } = useService({
    env: {
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      FILE_MAX_BYTES: String(MALFORMED_BODY_LIMITS.fileBytes),
      MAX_BODY_BYTES: String(MALFORMED_BODY_LIMITS.bodyBytes),
    },
  });

  it('answers each with a 4xx in the error envelope (or not at all when the client hung up), and /health after each', async () => {
    const openApi = (await api.get<{ paths: Record<string, Record<string, unknown>> }>('/openapi.json')).body;
    const routes = [
      ...Object.entries(openApi.paths).flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((method) => ['get', 'post', 'delete'].includes(method))
          .map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, 'x_fuzz1'), api: true })),
      ),
      ...PAGE_POSTS.map((path) => ({ method: 'POST', path, api: false })),
      { method: 'GET', path: '/health', api: false },
    ];
    const keyKinds = { secret: keys.testSecretKey, public: keys.testPublicKey, none: null };
    const bodies = malformedBodies(scale.uploadCutPoints);
    // Every body at every route with the secret key (the only one that gets a body read). Soak:
    // with the public key and without a key too; otherwise with one of those two in turn, so
    // that every body and every route still meets every key kind.
    const kinds = Object.entries(keyKinds);
    const requests = routes.flatMap((route, routeIndex) =>
      bodies.flatMap((body, bodyIndex) =>
        (scale.name === 'soak' ? kinds : [kinds[0]!, kinds[1 + ((routeIndex + bodyIndex) % 2)]!]).map(
          ([keyKind, key]) => ({ route, keyKind, key, body }),
        ),
      ),
    );
    const failures: string[] = [];
    const statuses = new Map<number | 'none', number>();
    let crash: string | null = null;
    /** With requests running concurrently, a crash is one of those in flight when /health stopped answering. */
    const inFlight = new Set<string>();
    let sent = 0;
    let next = 0;
    const worker = async () => {
      while (next < requests.length && crash === null) {
        const { route, keyKind, key, body } = requests[next++]!;
        const what = `${route.method} ${route.path} (${keyKind} key): ${body.name}`;
        inFlight.add(what);
        const headers = { ...body.headers };
        if (key !== null) headers.Authorization = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
        const answer = await sendRaw(
          service.baseUrl,
          { ...body, method: route.method, path: route.path, headers },
          REQUEST_DEADLINE_MS,
        );
        sent++;
        const status = answer.answered ? answer.status : 'none';
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (!answer.answered) {
          // A client that hangs up mid-body is owed nothing; anyone else is owed an answer.
          if (!body.hangUp) failures.push(`no answer (${answer.error}): ${what}`);
        } else if (answer.status >= 500) {
          failures.push(`${answer.status}: ${what} ${answer.body.slice(0, 200)}`);
        } else if (answer.status >= 400 && route.api && !inErrorEnvelope(answer.body)) {
          failures.push(`${answer.status} outside the error envelope: ${what} ${answer.body.slice(0, 200)}`);
        }
        const health = await fetch(`${service.baseUrl}/health`, { signal: AbortSignal.timeout(REQUEST_DEADLINE_MS) })
          .then((response) => response.status)
          .catch((error: unknown) => (error as Error).message);
        if (health !== 200) crash ??= `/health answered ${health} with in flight:\n  ${[...inFlight].join('\n  ')}`;
        inFlight.delete(what);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    // The figures of the run, for the record.
    console.log(
      `      malformed bodies: ${sent} of ${requests.length} requests (${routes.length} routes × ${bodies.length} bodies, ` +
        `secret key each, public and no key ${scale.name === 'soak' ? 'each' : 'in turn'}), statuses ${JSON.stringify(Object.fromEntries(statuses))}, ` +
        `crashes ${crash === null ? 0 : 1}, failures ${failures.length} (5xx, unanswered, or outside the error envelope)`,
    );
    if (crash !== null) {
      expect.fail(`the service stopped serving: ${crash}\n${service.output().slice(-1500)}`);
    }
    expect(failures.slice(0, 20), `${failures.length} failures`).to.deep.equal([]);
  });
});

function inErrorEnvelope(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as { error?: { type?: unknown; message?: unknown } };
    return typeof parsed.error?.type === 'string' && typeof parsed.error.message === 'string';
  } catch {
    return false;
  }
}
