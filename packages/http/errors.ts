import { z } from 'zod';
import { ConflictRetriesExhaustedError } from '../commands/conflict-retries-exhausted.ts';
import { CardError, GatewayError, InvalidRequestError, NotFoundError } from '../domain/errors.ts';
import type { Logger } from '../observability/logger.ts';
import { CursorNotFoundError } from '../readstore/document-store.ts';

/** The spec's error types (spec: Errors). */
export type ErrorType = 'invalid_request' | 'card_error' | 'gateway_error' | 'rate_limit_error';

export interface ErrorBody {
  type: ErrorType;
  message: string;
  /** The parameter at fault, when the service knows which one. */
  param?: string;
  /** Card errors only. */
  code?: string;
  chargeId?: string;
  issuerDeclineCode?: string;
  blacklistRuleId?: string;
  creditId?: string;
}

export interface ErrorEnvelope {
  error: ErrorBody;
}

export interface ErrorResponse {
  status: number;
  body: ErrorEnvelope;
  headers: Record<string, string>;
}

/** A failure the HTTP layer itself detects (authentication, body, limits), with its status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Shown for every unexpected failure: the details stay in the log, found by the request id. */
export const INTERNAL_ERROR_MESSAGE =
  'An unexpected error occurred. Quote the X-Request-Id response header when reporting it.';

/** Shown when a write kept losing the race for its object to other requests: nothing was recorded. */
export const CONTENDED_OBJECT_MESSAGE = 'The object is being changed by other requests; retry.';

/**
 * Maps anything thrown while serving a request to the error envelope (`docs/architecture.md`,
 * "Errors"). Unexpected errors are logged with their stack and answered with a generic message.
 */
export function errorResponse(error: unknown, logger: Logger): ErrorResponse {
  if (error instanceof HttpError)
    return envelope(error.status, { type: error.type, message: error.message }, error.headers);
  if (error instanceof InvalidRequestError) {
    const param = error.param === undefined ? {} : { param: error.param };
    return envelope(400, { type: 'invalid_request', message: error.message, ...param });
  }
  if (error instanceof NotFoundError) return envelope(404, { type: 'invalid_request', message: error.message });
  if (error instanceof CursorNotFoundError) {
    return envelope(400, {
      type: 'invalid_request',
      message: `Invalid parameter: ${error.parameter} does not name an existing object`,
    });
  }
  if (error instanceof GatewayError) return envelope(502, { type: 'gateway_error', message: error.message });
  if (error instanceof CardError)
    return envelope(402, { type: 'card_error', code: error.code, message: error.message, ...error.details });
  if (error instanceof ConflictRetriesExhaustedError) {
    // Expected under contention, not a defect: no stack, but operators see which object is hot.
    logger.warn('Gave up a write to a contended stream', { streamId: error.streamId, attempts: error.attempts });
    return envelope(503, { type: 'gateway_error', message: CONTENDED_OBJECT_MESSAGE });
  }
  // Express's own client errors, e.g. malformed percent-encoding in the path.
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    logger.warn('Malformed request', { error: (error as Error).message });
    return envelope(status, { type: 'invalid_request', message: 'Invalid request: the request is malformed' });
  }

  logger.error('Unexpected error while serving a request', { error });
  return envelope(500, { type: 'gateway_error', message: INTERNAL_ERROR_MESSAGE });
}

function envelope(status: number, error: ErrorBody, headers: Record<string, string> = {}): ErrorResponse {
  return { status, body: { error }, headers };
}

/** The envelope as documented in the OpenAPI document. */
export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      type: z.enum(['invalid_request', 'card_error', 'gateway_error', 'rate_limit_error']),
      message: z.string().meta({ description: 'Human-readable; do not parse it, it may change.' }),
      param: z.string().optional().meta({ description: 'The parameter at fault, when the service knows which one.' }),
      code: z.string().optional().meta({ description: 'Card errors only: why card processing failed.' }),
      chargeId: z.string().optional().meta({ description: 'Set when the request resulted in a declined charge.' }),
      issuerDeclineCode: z.string().optional().meta({ description: 'Set when the card issuer declined.' }),
      blacklistRuleId: z.string().optional().meta({ description: 'Set when a blacklist rule blocked the request.' }),
      creditId: z.string().optional().meta({ description: 'Set when the request resulted in a declined credit.' }),
    }),
  })
  .meta({ id: 'Error', description: 'Returned in place of the normal response when a request fails.' });
