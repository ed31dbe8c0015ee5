import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';

/** Name of the console's session cookie (`docs/operations.md`, "Operator console"). */
export const SESSION_COOKIE = 'operator_session';

/**
 * Who may see operator pages: a request with `Authorization: Bearer <OPERATOR_TOKEN>` (Prometheus,
 * scripts), or a browser holding the session cookie the console's login form sets. The cookie
 * holds a value derived from the token, never the token itself, and changes when the token does.
 */
export class OperatorAccess {
  constructor(private readonly token: string) {}

  /** The session cookie's value for the current token. */
  get sessionValue(): string {
    return createHmac('sha256', this.token).update('operator console session').digest('hex');
  }

  isToken(candidate: string): boolean {
    return sameText(candidate, this.token);
  }

  allows(req: Request): boolean {
    const authorization = req.get('authorization') ?? '';
    const bearer = /^Bearer (.+)$/i.exec(authorization)?.[1];
    if (bearer !== undefined) return this.isToken(bearer);
    const session = cookie(req, SESSION_COOKIE);
    return session !== undefined && sameText(session, this.sessionValue);
  }

  /** Refuses a request without access: 401 with the bearer challenge, or the login page for a browser. */
  require(onBrowser?: (res: Response) => void): RequestHandler {
    return (req, res, next) => {
      if (this.allows(req)) {
        next();
        return;
      }
      if (onBrowser && req.method === 'GET' && req.accepts(['json', 'html']) === 'html') {
        onBrowser(res);
        return;
      }
      res
        .status(401)
        .set('WWW-Authenticate', 'Bearer realm="operator"')
        .json({
          error: {
            type: 'invalid_request',
            message: 'Operator token required: Authorization: Bearer <OPERATOR_TOKEN>',
          },
        });
    };
  }
}

/** Compares in constant time, whatever the lengths. */
function sameText(a: string, b: string): boolean {
  const digest = (text: string) => createHmac('sha256', 'compare').update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** What an operator route answers while `OPERATOR_TOKEN` is not set: the API's unknown-URL 404. */
export const operatorRoutesOff: RequestHandler = (_req, res) => {
  res.status(404).json({
    error: { type: 'invalid_request', message: 'Unrecognized request URL: check the method and the path' },
  });
};
