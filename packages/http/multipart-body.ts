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

const invalid = (message: string) => new HttpError(400, 'invalid_request', `Invalid request: ${message}`);

/**
 * Reads a `multipart/form-data` body with busboy: text fields into `req.body`, the one file part
 * named `fileField` into memory, at most `maxFileBytes` (413 beyond). Anything else is a 4xx in the
 * error envelope: 415 for another content type, 400 for a malformed body (cut short, no or a wrong
 * boundary, a broken part header), a second file, a file under another name or a field past the
 * limits. The first problem stops the reading: the rest of the body is drained unread.
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
    if (mediaTypeOf(req) !== 'multipart/form-data') {
      done(new HttpError(415, 'invalid_request', 'Unsupported content type: send the file as multipart/form-data'));
      return;
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { ...FIELD_LIMITS, files: 1, parts: FIELD_LIMITS.fields + 1, fileSize: options.maxFileBytes },
      });
    } catch {
      done(invalid('the multipart body has no boundary'));
      return;
    }
    const stop = (error: HttpError) => {
      req.unpipe(parser);
      req.resume();
      done(error);
    };
    const fields: Record<string, string> = {};
    let file: Promise<UploadedFile | null> = Promise.resolve(null);

    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated)
        stop(new HttpError(400, 'invalid_request', `Invalid parameter: ${name.slice(0, 100)} is too long`));
      else fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      // A body cut short inside a file destroys its stream with busboy's error, which the parser
      // reports too (and is answered there): unheard here, it would end the process.
      stream.on('error', () => {});
      if (name !== options.fileField) {
        stream.resume();
        stop(new HttpError(400, 'invalid_request', `Unknown parameter: ${name.slice(0, 100)}`));
        return;
      }
      file = new Promise((resolve) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('limit', () =>
          stop(
            new HttpError(
              413,
              'invalid_request',
              `Invalid request: the file exceeds the maximum size of ${options.maxFileBytes} bytes`,
            ),
          ),
        );
        stream.on('end', () => {
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
    parser.on('filesLimit', () => stop(invalid('send one file only')));
    parser.on('fieldsLimit', () => stop(invalid('too many parameters')));
    parser.on('partsLimit', () => stop(invalid('too many parts')));
    // Cut short ("Unexpected end of form"), a broken part header, bytes after the body's end.
    parser.on('error', (error: Error) => stop(invalid(`the multipart body is malformed (${error.message})`)));
    parser.on('close', () => {
      void file.then((uploaded) => {
        if (uploaded) uploads.set(req, uploaded);
        req.body = fields;
        done();
      });
    });
    // A client that hangs up mid-body: busboy's destroy reports the cut as an error, answered above.
    req.on('close', () => {
      if (!req.complete) parser.destroy();
    });
    req.pipe(parser);
  };
}

function mediaTypeOf(req: Request): string {
  return (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
}
