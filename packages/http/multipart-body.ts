import { AsyncResource } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import busboy from 'busboy';
import type { Request, RequestHandler } from 'express';
import { HttpError } from './errors.ts';

/** The one file of a multipart upload. */
export interface UploadedFile {
  /** Form field name of the part (`file`). */
  field: string;
  /** File name the client gave, if any: informative only, never trusted for the type. */
  filename: string | null;
  bytes: Buffer;
  /** SHA-256 of the bytes, hex (idempotency compares uploads by it). */
  sha256: string;
}

const uploads = new WeakMap<Request, UploadedFile>();

/** The file a multipart route received, once `parseMultipartBody` ran. */
export const uploadedFileOf = (req: Request): UploadedFile | undefined => uploads.get(req);

/** Text fields of an upload: few and short (the file is the payload). */
const FIELD_LIMITS = { fields: 20, fieldSize: 1024, fieldNameSize: 100 };

/**
 * Reads a `multipart/form-data` body with busboy: text fields into `req.body`, the one file part
 * named `fileField` into memory, at most `maxFileBytes` (413 beyond). Anything else is a 4xx in the
 * error envelope: 415 for another content type, 400 for a malformed body, a second file or a file
 * under another name.
 */
export function parseMultipartBody(options: { fileField: string; maxFileBytes: number }): RequestHandler {
  return (req, _res, next) => {
    let finished = false;
    // Busboy's callbacks run outside the request's async context; bound, the rest of the chain stays in it.
    const done = AsyncResource.bind((error?: unknown) => {
      if (finished) return;
      finished = true;
      if (error) next(error);
      else next();
    });
    if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) {
      done(new HttpError(415, 'invalid_request', 'Unsupported content type: send the file as multipart/form-data'));
      return;
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { ...FIELD_LIMITS, files: 1, fileSize: options.maxFileBytes },
      });
    } catch {
      done(new HttpError(400, 'invalid_request', 'Invalid request: the multipart body has no boundary'));
      return;
    }
    const fields: Record<string, string> = {};
    let problem: HttpError | null = null;
    let file: Promise<UploadedFile | null> = Promise.resolve(null);
    const fail = (error: HttpError) => {
      problem ??= error;
    };

    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated)
        fail(new HttpError(400, 'invalid_request', `Invalid parameter: ${name} is too long`));
      else fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== options.fileField) {
        fail(new HttpError(400, 'invalid_request', `Unknown parameter: ${name}`));
        stream.resume();
        return;
      }
      file = new Promise((resolve) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('limit', () =>
          fail(
            new HttpError(
              413,
              'invalid_request',
              `Invalid request: the file exceeds the maximum size of ${options.maxFileBytes} bytes`,
            ),
          ),
        );
        stream.on('close', () => {
          const bytes = Buffer.concat(chunks);
          resolve({
            field: name,
            filename: info.filename ?? null,
            bytes,
            sha256: createHash('sha256').update(bytes).digest('hex'),
          });
        });
      });
    });
    parser.on('filesLimit', () => fail(new HttpError(400, 'invalid_request', 'Invalid request: send one file only')));
    parser.on('fieldsLimit', () => fail(new HttpError(400, 'invalid_request', 'Invalid request: too many parameters')));
    parser.on('error', () => {
      fail(new HttpError(400, 'invalid_request', 'Invalid request: the multipart body is malformed'));
      req.unpipe(parser);
      req.resume();
      done(problem!);
    });
    parser.on('close', () => {
      void file.then((uploaded) => {
        if (problem) return done(problem);
        if (uploaded) uploads.set(req, uploaded);
        req.body = fields;
        done();
      });
    });
    req.pipe(parser);
  };
}
