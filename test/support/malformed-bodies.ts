import { gzipSync } from 'node:zlib';
import type { RawRequest } from './raw-http.ts';

/** A request body (with the headers that frame it) that no correct client sends. */
export interface MalformedBody extends Omit<RawRequest, 'method' | 'path' | 'headers'> {
  name: string;
  headers: Record<string, string>;
}

/** Limits to start the service with, so that the bodies past them stay small. */
export const MALFORMED_BODY_LIMITS = { fileBytes: 1024, bodyBytes: 4096 };

const CRLF = '\r\n';

/** The parts of a multipart body, each ending with CRLF, as a client writes them before the closing boundary. */
function part(boundary: string, headers: string[], content: string | Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}${CRLF}${headers.join(CRLF)}${CRLF}${CRLF}`, 'latin1'),
    Buffer.isBuffer(content) ? content : Buffer.from(content, 'latin1'),
    Buffer.from(CRLF),
  ]);
}

const field = (boundary: string, name: string, value: string) =>
  part(boundary, [`Content-Disposition: form-data; name="${name}"`], value);

const filePart = (boundary: string, name: string, bytes: string | Buffer, filename = 'a.png') =>
  part(boundary, [`Content-Disposition: form-data; name="${name}"; filename="${filename}"`], bytes);

const closing = (boundary: string) => Buffer.from(`--${boundary}--${CRLF}`);

const multipart = (boundary = 'XX') => ({ 'Content-Type': `multipart/form-data; boundary=${boundary}` });
const json = { 'Content-Type': 'application/json' };
const form = { 'Content-Type': 'application/x-www-form-urlencoded' };

/** The upload the official clients send: purpose, then the file. */
function wellFormedUpload(fileBytes: Buffer | string = '%PDF-1.4 evidence'): Buffer {
  return Buffer.concat([
    field('XX', 'purpose', 'dispute_evidence'),
    filePart('XX', 'file', fileBytes, 'evidence.pdf'),
    closing('XX'),
  ]);
}

/**
 * Every malformed body the reliability suite knows, for every route: multipart cut short or
 * framed wrongly, bodies past the service's limits (started with `MALFORMED_BODY_LIMITS`), JSON and
 * form bodies that do not parse, types, charsets and encodings the API does not take, and HTTP
 * framing that Node's own parser refuses. `cutPoints` more are the well-formed upload cut at that
 * many evenly spaced lengths.
 */
export function malformedBodies(cutPoints: number): MalformedBody[] {
  const upload = wellFormedUpload();
  const bodies: MalformedBody[] = [
    {
      // The body from the report: the closing boundary never comes.
      name: 'multipart cut after the file part',
      headers: multipart(),
      body: Buffer.concat([field('XX', 'purpose', 'dispute_evidence'), filePart('XX', 'file', 'PNG')]),
    },
    {
      name: 'multipart cut inside a part header',
      headers: multipart(),
      body: Buffer.from(`--XX${CRLF}Content-Disposition: form-da`),
    },
    { name: 'multipart with only its first boundary', headers: multipart(), body: Buffer.from('--XX') },
    {
      name: 'multipart cut inside the file bytes',
      headers: multipart(),
      body: Buffer.from(`--XX${CRLF}Content-Disposition: form-data; name="file"; filename="a.pdf"${CRLF}${CRLF}%PDF-1`),
    },
    {
      name: 'multipart with a file under another name, cut',
      headers: multipart(),
      body: filePart('XX', 'attachment', 'PNG'),
    },
    {
      name: 'multipart whose boundary never appears',
      headers: multipart('YY'),
      body: upload,
    },
    { name: 'multipart without a boundary', headers: { 'Content-Type': 'multipart/form-data' }, body: upload },
    { name: 'multipart with an empty boundary', headers: multipart(''), body: upload },
    {
      name: 'multipart with an unterminated quoted boundary',
      headers: { 'Content-Type': 'multipart/form-data; boundary="XX' },
      body: upload,
    },
    {
      name: 'multipart with a 200-character boundary, cut',
      headers: multipart('b'.repeat(200)),
      body: filePart('b'.repeat(200), 'file', 'PNG'),
    },
    {
      name: 'multipart with a part without Content-Disposition',
      headers: multipart(),
      body: Buffer.concat([part('XX', ['Content-Type: text/plain'], 'x'), closing('XX')]),
    },
    {
      name: 'multipart with a part header line without a colon',
      headers: multipart(),
      body: Buffer.concat([part('XX', ['Content-Disposition form-data name=file'], 'x'), closing('XX')]),
    },
    {
      name: 'multipart with a 20 KiB part header',
      headers: multipart(),
      body: Buffer.concat([
        part(
          'XX',
          ['Content-Disposition: form-data; name="file"; filename="a.png"', `X-Pad: ${'a'.repeat(20_000)}`],
          'x',
        ),
        closing('XX'),
      ]),
    },
    {
      name: 'multipart with two files',
      headers: multipart(),
      body: Buffer.concat([filePart('XX', 'file', 'one'), filePart('XX', 'file', 'two'), closing('XX')]),
    },
    {
      name: 'multipart with two files, cut',
      headers: multipart(),
      body: Buffer.concat([filePart('XX', 'file', 'one'), filePart('XX', 'file', 'two')]),
    },
    {
      name: 'multipart with 40 fields',
      headers: multipart(),
      body: Buffer.concat([...Array.from({ length: 40 }, (_, i) => field('XX', `f${i}`, 'x')), closing('XX')]),
    },
    {
      name: 'multipart with a 5 KiB field value',
      headers: multipart(),
      body: Buffer.concat([field('XX', 'purpose', 'x'.repeat(5000)), closing('XX')]),
    },
    {
      name: 'multipart with a 500-character field name',
      headers: multipart(),
      body: Buffer.concat([field('XX', 'p'.repeat(500), 'x'), closing('XX')]),
    },
    {
      name: 'multipart with a file over the size limit',
      headers: multipart(),
      body: wellFormedUpload(Buffer.alloc(MALFORMED_BODY_LIMITS.fileBytes * 3, 0x41)),
    },
    {
      name: 'multipart with a file over the size limit, cut',
      headers: multipart(),
      body: filePart('XX', 'file', Buffer.alloc(MALFORMED_BODY_LIMITS.fileBytes * 3, 0x41)),
    },
    {
      name: 'multipart of random bytes',
      headers: multipart(),
      body: Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 131 + 7) % 256)),
    },
    {
      name: 'multipart cut short of its Content-Length, client hangs up',
      headers: multipart(),
      body: upload.subarray(0, upload.length - 20),
      contentLength: 'larger',
      hangUp: true,
    },
    { name: 'JSON cut short', headers: json, body: Buffer.from('{"amount": 100, "currency": "EU') },
    { name: 'JSON that is an array', headers: json, body: Buffer.from('[1, 2, 3]') },
    {
      name: 'JSON nested 5000 levels deep',
      headers: json,
      body: Buffer.from(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`),
    },
    {
      name: 'JSON with invalid UTF-8',
      headers: json,
      body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
    },
    { name: 'JSON with __proto__', headers: json, body: Buffer.from('{"__proto__": {"admin": true}}') },
    {
      name: 'JSON over the body size limit',
      headers: json,
      body: Buffer.from(JSON.stringify({ description: 'x'.repeat(MALFORMED_BODY_LIMITS.bodyBytes * 2) })),
    },
    { name: 'form with malformed percent-encoding', headers: form, body: Buffer.from('amount=%E0%A4%A&currency=%zz') },
    { name: 'form nested too deeply', headers: form, body: Buffer.from('a[b][c][d][e][f][g][h]=1') },
    {
      name: 'form with 1500 parameters',
      headers: form,
      body: Buffer.from(Array.from({ length: 1500 }, (_, i) => `p${i}=1`).join('&')),
    },
    { name: 'form with constructor[prototype]', headers: form, body: Buffer.from('constructor[prototype][admin]=1') },
    { name: 'plain text', headers: { 'Content-Type': 'text/plain' }, body: Buffer.from('amount=100') },
    { name: 'XML', headers: { 'Content-Type': 'application/xml' }, body: Buffer.from('<charge amount="100"/>') },
    { name: 'a content type that is no media type', headers: { 'Content-Type': ';;=;' }, body: Buffer.from('{}') },
    {
      name: 'JSON in latin1',
      headers: { 'Content-Type': 'application/json; charset=latin1' },
      body: Buffer.from('{"a":1}'),
    },
    { name: 'no content type', headers: {}, body: Buffer.from('{"amount": 100}') },
    {
      name: 'gzip that is not gzip',
      headers: { ...json, 'Content-Encoding': 'gzip' },
      body: Buffer.from('{"amount": 100}'),
    },
    {
      name: 'gzip cut short',
      headers: { ...json, 'Content-Encoding': 'gzip' },
      body: gzipSync('{"amount": 100, "currency": "EUR"}').subarray(0, 20),
    },
    {
      name: 'an unknown content encoding',
      headers: { ...json, 'Content-Encoding': 'compress' },
      body: Buffer.from('{}'),
    },
    {
      name: 'JSON cut short of its Content-Length, client hangs up',
      headers: json,
      body: Buffer.from('{"amount": 1'),
      contentLength: 'larger',
      hangUp: true,
    },
    {
      name: 'malformed chunked framing',
      headers: { ...json, 'Transfer-Encoding': 'chunked' },
      body: Buffer.from(`zz${CRLF}{}${CRLF}0${CRLF}${CRLF}`),
      contentLength: 'none',
    },
    {
      name: 'both Content-Length and Transfer-Encoding',
      headers: { ...json, 'Transfer-Encoding': 'chunked' },
      body: Buffer.from(`2${CRLF}{}${CRLF}0${CRLF}${CRLF}`),
    },
    {
      name: 'request headers over 16 KiB',
      headers: { ...json, 'X-Pad': 'a'.repeat(20_000) },
      body: Buffer.from('{}'),
    },
  ];
  for (let cut = 1; cut <= cutPoints; cut++) {
    const length = Math.floor((upload.length * cut) / (cutPoints + 1));
    bodies.push({
      name: `multipart cut at byte ${length} of ${upload.length}`,
      headers: multipart(),
      body: upload.subarray(0, length),
    });
  }
  return bodies;
}
