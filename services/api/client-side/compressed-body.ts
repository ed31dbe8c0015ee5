import type { Request } from 'express';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** The encodings the service answers with, best first; `identity` is the body as it is. */
export type Encoding = 'br' | 'gzip' | 'identity';

/** A body in each encoding, made once (for scripts: when the bundle is built). */
export type EncodedBodies = Record<Encoding, Buffer>;

/** Below this, compressing saves less than the header costs. */
const MIN_BYTES = 512;

/** A script in each encoding, at the best (slowest) compression: done once per build. */
export function encodeBody(text: string): EncodedBodies {
  const identity = Buffer.from(text, 'utf8');
  return {
    identity,
    br: brotliCompressSync(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzip: gzipSync(identity, { level: constants.Z_BEST_COMPRESSION }),
  };
}

/** The encoding the browser accepts (`Accept-Encoding`), preferring brotli. */
export function encodingFor(req: Request): Encoding {
  // Asked one at a time: browsers list gzip before br at the same weight, and br is smaller.
  if (req.acceptsEncodings('br') === 'br') return 'br';
  if (req.acceptsEncodings('gzip') === 'gzip') return 'gzip';
  return 'identity';
}

/** The encoding to answer with: none for a body too small to gain from it. */
export function chooseEncoding(req: Request, bytes: number): Encoding {
  return bytes < MIN_BYTES ? 'identity' : encodingFor(req);
}
