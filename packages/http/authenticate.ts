import type { Request, RequestHandler } from 'express';
import { HttpError } from './errors.ts';
import { requestState } from './request-state.ts';
import type { AuthContext, RouteDefinition } from './route.ts';

export type Authenticate = (apiKey: string) => Promise<AuthContext | null>;

const CHALLENGE = { 'WWW-Authenticate': 'Basic realm="api"' };

/**
 * Recognises the caller's API key: HTTP Basic with the key as user name (the password is ignored),
 * or `Authorization: Bearer <key>` as some client libraries send it. Does not reject: the rate
 * limiter runs next and needs to count failed attempts too (per client IP).
 */
export function identifyCaller(authenticate: Authenticate): RequestHandler {
  return async (req, res, next) => {
    const apiKey = apiKeyOf(req);
    const auth = apiKey ? await authenticate(apiKey) : null;
    if (auth) {
      const state = requestState(res);
      state.auth = auth;
      state.log.accountId = auth.accountId;
      state.log.keyId = auth.keyId;
    }
    next();
  };
}

/** Refuses requests without a recognised key: 401. */
export function requireApiKey(): RequestHandler {
  return (req, res, next) => {
    if (requestState(res).auth) {
      next();
      return;
    }
    const message = apiKeyOf(req)
      ? 'Invalid API key'
      : 'No API key provided: use HTTP Basic authentication with your API key as the user name and a blank password';
    next(new HttpError(401, 'invalid_request', message, CHALLENGE));
  };
}

/** Public keys may only call routes that allow them (token creation). */
export function authorizeKeyKind(
  route: Pick<RouteDefinition<unknown, unknown, unknown>, 'auth'>,
  auth: AuthContext,
): void {
  if (auth.keyKind === 'public' && route.auth !== 'publicOrSecret') {
    throw new HttpError(
      401,
      'invalid_request',
      'This endpoint requires a secret key; a public key was used',
      CHALLENGE,
    );
  }
}

function apiKeyOf(req: Request): string | undefined {
  const header = req.get('authorization')?.trim();
  if (!header) return undefined;
  const [scheme = '', credentials = ''] = header.split(/\s+/, 2);
  if (scheme.toLowerCase() === 'bearer') return credentials || undefined;
  if (scheme.toLowerCase() !== 'basic') return undefined;
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  return (separator === -1 ? decoded : decoded.slice(0, separator)) || undefined;
}
