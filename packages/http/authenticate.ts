import type { Request, RequestHandler, Response } from 'express';
import { HttpError } from './errors.ts';
import { requestState } from './request-state.ts';
import type { AuthContext, RouteDefinition } from './route.ts';

/** The caller a key belongs to; at once (no promise) when that is already known. */
export type Authenticate = (apiKey: string) => AuthContext | null | Promise<AuthContext | null>;

const CHALLENGE = { 'WWW-Authenticate': 'Basic realm="api"' };

/**
 * Thrown by an `Authenticate` that cannot tell yet whether a key exists: the accounts it reads are
 * still catching up with the event log (a start, a projector far behind). A 401 would tell the
 * client its key is wrong for good; this is a 503 to retry.
 */
export class KeyNotKnownYet extends HttpError {
  constructor() {
    super(503, 'gateway_error', 'The service is catching up with its event log; retry shortly.', {
      'Retry-After': '1',
    });
  }
}

/**
 * Recognises the caller's API key: HTTP Basic with the key as user name (the password is ignored),
 * or `Authorization: Bearer <key>` as some client libraries send it. Does not reject: the rate
 * limiter runs next and needs to count failed attempts too (per client IP).
 */
export function identifyCaller(authenticate: Authenticate): RequestHandler {
  return (req, res, next) => {
    const credentials = credentialsOf(req);
    const auth = credentials.kind === 'key' ? authenticate(credentials.apiKey) : null;
    if (!(auth instanceof Promise)) {
      recognised(res, auth);
      next();
      return;
    }
    return auth.then(
      (found) => {
        recognised(res, found);
        next();
      },
      (error: unknown) => {
        if (!(error instanceof KeyNotKnownYet)) throw error;
        // Counted by the rate limiter as a request without a recognised key; answered by requireApiKey.
        requestState(res).keyNotKnownYet = true;
        next();
      },
    );
  };
}

/** Keeps the caller a recognised key names in the request's state and its log context. */
function recognised(res: Response, auth: AuthContext | null): void {
  if (!auth) return;
  const state = requestState(res);
  state.auth = auth;
  state.log.accountId = auth.accountId;
  state.log.keyId = auth.keyId;
}

/** Refuses requests without a recognised key: 401. */
export function requireApiKey(): RequestHandler {
  return (req, res, next) => {
    const state = requestState(res);
    if (state.auth) {
      next();
      return;
    }
    if (state.keyNotKnownYet) {
      next(new KeyNotKnownYet());
      return;
    }
    const credentials = credentialsOf(req);
    const message =
      credentials.kind === 'key'
        ? 'Invalid API key'
        : credentials.kind === 'malformed'
          ? 'Malformed Authorization header: use HTTP Basic authentication with your API key as the user name and a blank password, or Bearer <API key>'
          : 'No API key provided: use HTTP Basic authentication with your API key as the user name and a blank password';
    next(new HttpError(401, 'invalid_request', message, CHALLENGE));
  };
}

/**
 * Refuses a key kind the route does not take (401) before anything of the request is read: a
 * public key never gets its body parsed by a route that requires a secret key.
 */
export function requireKeyKind(route: Pick<RouteDefinition<unknown, unknown, unknown>, 'auth'>): RequestHandler {
  return (_req, res, next) => {
    // requireApiKey ran before: the caller is known.
    authorizeKeyKind(route, requestState(res).auth!);
    next();
  };
}

/** Public keys may only call routes that allow them (token creation). */
function authorizeKeyKind(route: Pick<RouteDefinition<unknown, unknown, unknown>, 'auth'>, auth: AuthContext): void {
  if (auth.keyKind === 'public' && route.auth !== 'publicOrSecret') {
    throw new HttpError(
      401,
      'invalid_request',
      'This endpoint requires a secret key; a public key was used',
      CHALLENGE,
    );
  }
}

/**
 * The API key a request names in the Authorization header, in exactly the forms authentication
 * accepts; undefined for none or a malformed header. For pages whose calls check their key
 * themselves (the hosted checkout).
 */
export function apiKeyOf(req: Request): string | undefined {
  const credentials = credentialsOf(req);
  return credentials.kind === 'key' ? credentials.apiKey : undefined;
}

type Credentials = { kind: 'none' } | { kind: 'malformed' } | { kind: 'key'; apiKey: string };

/** `Basic` then one space then canonical base64 (padded, nothing after it). */
const BASIC = /^basic ([A-Za-z0-9+/]+={0,2})$/i;
/** `Bearer` then one space then the key itself. */
const BEARER = /^bearer ([A-Za-z0-9_]+)$/i;
/** An API key as the service issues them (`sk_test_…`, `pk_live_…`): nothing else is looked up. */
const API_KEY_SHAPE = /^[A-Za-z0-9_]{1,200}$/;

/**
 * Exactly the documented forms, nothing looser: `Basic base64(<key>:<password>)` with the
 * password ignored (RFC 7617: the colon is required), or `Bearer <key>`; the scheme in any case.
 * Trailing text, base64 that does not re-encode to itself, a missing colon or a key of another
 * shape make the header malformed.
 */
function credentialsOf(req: Request): Credentials {
  const header = req.get('authorization');
  if (header === undefined || header.trim() === '') return { kind: 'none' };
  const bearer = BEARER.exec(header);
  if (bearer) return { kind: 'key', apiKey: bearer[1]! };
  const basic = BASIC.exec(header);
  if (!basic) return { kind: 'malformed' };
  const encoded = basic[1]!;
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.toString('base64') !== encoded) return { kind: 'malformed' };
  const decoded = bytes.toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator === -1) return { kind: 'malformed' };
  const apiKey = decoded.slice(0, separator);
  if (apiKey === '') return { kind: 'none' };
  return API_KEY_SHAPE.test(apiKey) ? { kind: 'key', apiKey } : { kind: 'malformed' };
}
