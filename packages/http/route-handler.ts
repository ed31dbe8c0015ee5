import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { faultPoint } from '../config/fault-injection.ts';
import type { Logger } from '../observability/logger.ts';
import { readingAsOf, takeAsOf } from './as-of.ts';
import { containsCardNumber } from '../network/card-numbers-in-text.ts';
import { refuseCardNumbersInText } from './card-numbers-in-parameters.ts';
import { errorResponse, HttpError } from './errors.ts';
import { IDEMPOTENCY_KEY_MAX_LENGTH, type IdempotencyStore, type StoredResponse } from './idempotency.ts';
import { requestState } from './request-state.ts';
import { checkedResponse } from './response-check.ts';
import { uploadedFileOf } from './multipart-body.ts';
import { FileDownload, type AnyRouteDefinition, type AuthContext, type RequestContext } from './route.ts';
import { validateParameters } from './validation.ts';

export interface RouteDependencies {
  idempotency: IdempotencyStore;
  logger: Logger;
  /** Check every 200 answer against the route's response schema (tests, development). */
  strictResponses?: boolean;
}

/** A route without a query or body schema accepts no parameters there. */
const NO_PARAMETERS = z.strictObject({});

/** Headers a handler has no business reading. */
const WITHHELD_HEADERS = new Set(['authorization', 'cookie']);

/**
 * Serves one route (its key kind checked before, by requireKeyKind): validates the parameters, runs the handler and answers
 * with its result or the error envelope. POSTs with an `Idempotency-Key` run through the
 * idempotency store, and replays carry `Idempotent-Replayed: true`.
 */
export function routeHandler(
  route: AnyRouteDefinition,
  { idempotency, logger, strictResponses = false }: RouteDependencies,
): RequestHandler {
  return async (req, res) => {
    const { auth: recognised, log } = requestState(res);
    // requireApiKey and requireKeyKind run before every route.
    const auth = recognised!;
    const idempotencyKey = route.method === 'post' ? idempotencyKeyOf(req) : undefined;
    /** Runs the route; with an idempotent request's key and token when it has them. */
    const execute = async (idempotent?: { key: string; token: string }) => {
      const caller = {
        auth,
        requestId: log.requestId,
        correlationId: log.correlationId,
        ...(idempotent && { idempotent }),
      };
      const response = await executeRoute(route, req, caller, logger);
      const checked = strictResponses && !(response.body instanceof FileDownload);
      return checked ? checkedResponse(route, response, logger) : response;
    };

    if (idempotencyKey === undefined) {
      send(res, await execute());
      return;
    }
    const scope = { accountId: auth.accountId, mode: auth.mode, keyKind: auth.keyKind, key: idempotencyKey };
    const fingerprint = idempotency.fingerprint(req.method, req.path, fingerprintedBody(req));
    const idempotent = { key: idempotencyKey, token: idempotency.requestToken(scope, fingerprint) };
    const { response, replayed } = await idempotency.run(scope, fingerprint, async () => {
      const answer = await execute(idempotent);
      faultPoint('request.after-projection', { mode: auth.mode, actor: auth.keyId });
      return answer;
    });
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    send(res, response);
  };
}

/**
 * The request's `Idempotency-Key`; a 400 for one that is empty or too long. The key is stored as
 * given (records, event metadata, object history), so one holding a card number is refused:
 * masking it would make different keys one.
 */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.get('idempotency-key');
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new HttpError(
      400,
      'invalid_request',
      `Invalid Idempotency-Key header: must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters long`,
    );
  }
  if (containsCardNumber(key)) {
    throw new HttpError(400, 'invalid_request', 'Invalid Idempotency-Key header: must not contain a card number');
  }
  return key;
}

interface Caller {
  auth: AuthContext;
  requestId: string;
  correlationId: string | undefined;
  idempotent?: { key: string; token: string };
}

/** Never throws: failures become the error envelope, so that idempotency can store them. */
async function executeRoute(
  route: AnyRouteDefinition,
  req: Request,
  caller: Caller,
  logger: Logger,
): Promise<StoredResponse> {
  try {
    // Reading req.query parses the query string (again at each read), which may fail: once, inside the try on purpose.
    const rawQuery: unknown = req.query;
    refuseCardNumbersInText(rawQuery);
    refuseCardNumbersInText(req.body);
    const { asOf, rest: query } = takeAsOf(route, rawQuery);
    const ctx: RequestContext<unknown, unknown, unknown> = {
      auth: caller.auth,
      params: route.params ? validateParameters(route.params, req.params) : req.params,
      query: route.query ? validateParameters(route.query, query) : noParameters(query),
      body: route.body ? validateParameters(route.body, req.body) : noParameters(req.body),
      requestId: caller.requestId,
      ...(caller.correlationId !== undefined && { correlationId: caller.correlationId }),
      ...(caller.idempotent && { idempotencyKey: caller.idempotent.key, requestToken: caller.idempotent.token }),
      headers: handlerHeaders(req),
      ip: req.ip ?? req.socket.remoteAddress ?? '',
      protocol: req.protocol === 'https' ? 'https' : 'http',
    };
    const file = uploadedFileOf(req);
    if (file) ctx.file = file;
    return { status: 200, body: await readingAsOf(asOf, () => route.handler(ctx)) };
  } catch (error) {
    const { status, body, headers } = errorResponse(error, logger);
    return Object.keys(headers).length > 0 ? { status, body, headers } : { status, body };
  }
}

/** What a route without a query or body schema gets: `{}`, or the envelope's error for anything given. */
function noParameters(input: unknown): Record<string, never> {
  // An empty object needs no schema run (a zod parse of `{}` costs about 2 µs a call).
  if (input !== null && typeof input === 'object' && !Array.isArray(input) && isEmpty(input)) return {};
  return validateParameters(NO_PARAMETERS, input);
}

/** No own enumerable key: what a strict empty schema accepts. */
function isEmpty(object: object): boolean {
  for (const key in object) if (Object.hasOwn(object, key)) return false;
  return true;
}

function handlerHeaders(req: Request): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (!WITHHELD_HEADERS.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** What makes two requests the same for idempotency: the parameters, and an upload's bytes by their hash. */
function fingerprintedBody(req: Request): unknown {
  const file = uploadedFileOf(req);
  return file ? { ...(req.body as Record<string, unknown>), [file.field]: `sha256:${file.sha256}` } : req.body;
}

export function send(res: Response, response: StoredResponse, headers: Record<string, string> = {}): void {
  if (response.body instanceof FileDownload) {
    const { bytes, contentType, filename } = response.body;
    res
      .status(response.status)
      // Saved, never shown in the browser, and never taken for another type than the one given.
      .set({
        ...headers,
        'Content-Type': contentType,
        'Content-Disposition': `attachment; filename="${filename}"`,
        'X-Content-Type-Options': 'nosniff',
      })
      .send(bytes);
    return;
  }
  // What express's res.json would send (no ETag: etags are off; no 304: nothing to revalidate),
  // without its content negotiation helpers, which showed in profiles of every answer.
  const json = JSON.stringify(response.body) ?? '';
  res.statusCode = response.status;
  for (const [name, value] of Object.entries({ ...response.headers, ...headers })) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}
