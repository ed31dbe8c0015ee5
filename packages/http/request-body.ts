import { AsyncResource } from 'node:async_hooks';
import express, { type Request, type RequestHandler } from 'express';
import { HttpError } from './errors.ts';
import { parseFormEncoded } from './form-encoding.ts';
import { refuseReservedKeys } from './reserved-names.ts';

/**
 * Reads and decodes the request body into `req.body`: a JSON object (`application/json`) or form
 * fields (`application/x-www-form-urlencoded`); an empty body is `{}` whatever its content type.
 * Any body that cannot be decoded is a 4xx in the error envelope: 413 when too large, 415 for
 * other content types, charsets or content encodings, 400 for everything malformed.
 */
export function parseRequestBody(maxBodyBytes: number): RequestHandler {
  // Reads the bytes (inflating gzip/deflate/br within the same size limit); decoding is ours.
  const readBytes = express.raw({ type: () => true, limit: maxBodyBytes });
  return (req, res, next) => {
    // Most GETs announce no body at all: nothing to read, and the reader's set-up is skipped.
    if (!announcesBody(req)) {
      req.body = {};
      next();
      return;
    }
    // Stream callbacks run outside the request's async context; run there, the rest of the chain stays in it.
    const context = new AsyncResource('RequestBody');
    readBytes(req, res, (readError?: unknown) => {
      context.runInAsyncScope(() => {
        if (readError) {
          next(readFailure(readError, maxBodyBytes));
          return;
        }
        try {
          req.body = decodeBody(req);
          next();
        } catch (error) {
          next(error);
        }
      });
    });
  };
}

/**
 * Reads the body's bytes as sent into `req.body` (a Buffer, empty without a body), for a route that
 * verifies them (a signature over the raw body); failures as in `parseRequestBody`.
 */
export function readRawBody(maxBodyBytes: number): RequestHandler {
  const readBytes = express.raw({ type: () => true, limit: maxBodyBytes });
  return (req, res, next) => {
    const context = new AsyncResource('RawRequestBody');
    readBytes(req, res, (readError?: unknown) => {
      context.runInAsyncScope(() => {
        if (readError) {
          next(readFailure(readError, maxBodyBytes));
          return;
        }
        if (!Buffer.isBuffer(req.body)) req.body = Buffer.alloc(0);
        next();
      });
    });
  };
}

/** HTTP/1.1: a request has a body only when it says so, by Content-Length or Transfer-Encoding. */
function announcesBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
}

/** JSON nested deeper than this is refused (form bodies stop at 5 levels). */
const MAX_JSON_DEPTH = 32;
const SUPPORTED_TYPES = 'application/json or application/x-www-form-urlencoded';

function decodeBody(req: Request): Record<string, unknown> {
  const bytes: unknown = req.body;
  if (!Buffer.isBuffer(bytes) || bytes.length === 0) return {};

  const { mediaType, charset } = parseContentType(req.headers['content-type']);
  if (mediaType !== 'application/json' && mediaType !== 'application/x-www-form-urlencoded') {
    throw new HttpError(415, 'invalid_request', `Unsupported content type: send the body as ${SUPPORTED_TYPES}`);
  }
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError(415, 'invalid_request', 'Unsupported charset: send the body in utf-8');
  }
  const text = utf8Text(bytes);
  return mediaType === 'application/json' ? jsonObject(text) : parseFormEncoded(text, 'body');
}

function parseContentType(header: string | undefined): { mediaType?: string; charset?: string } {
  if (!header) return {};
  const [mediaType, ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters
    .find((parameter) => parameter.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  return { mediaType, charset };
}

function utf8Text(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(400, 'invalid_request', 'Invalid request: the body is not valid utf-8');
  }
}

function jsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_request', 'Invalid request: the body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'invalid_request', 'Invalid request: the JSON body must be an object');
  }
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) {
    throw new HttpError(
      400,
      'invalid_request',
      `Invalid request: the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
  }
  refuseReservedKeys(value);
  return value as Record<string, unknown>;
}

/** Stops descending at the limit, so a hostile body cannot exhaust the stack. */
function nestedDeeperThan(value: unknown, levelsLeft: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levelsLeft === 0) return true;
  return Object.values(value).some((child) => nestedDeeperThan(child, levelsLeft - 1));
}

function readFailure(error: unknown, maxBodyBytes: number): HttpError {
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.too.large') {
    return new HttpError(
      413,
      'invalid_request',
      `Invalid request: the body exceeds the maximum size of ${maxBodyBytes} bytes`,
    );
  }
  if (type === 'encoding.unsupported') return new HttpError(415, 'invalid_request', 'Unsupported Content-Encoding');
  return new HttpError(400, 'invalid_request', 'Invalid request: the body could not be read');
}
