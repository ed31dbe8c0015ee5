import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature every webhook request carries, in the header `Shift4-Signature`:
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the endpoint's secret>`.
 * The timestamp is signed with the body so that a captured request cannot be replayed later than
 * the receiver's tolerance. Several `v1` entries may appear (a receiver accepts any that matches).
 */
export const SIGNATURE_HEADER = 'Shift4-Signature';

/** Receivers should refuse signatures older (or newer) than this. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export function signPayload(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

export function signatureHeader(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${signPayload(secret, timestamp, body)}`;
}

export interface VerifyOptions {
  toleranceSeconds?: number;
  /** Unix seconds; default the current time. */
  now?: number;
}

/** What a receiver does: true when the header is well-formed, recent and signed with the secret. */
export function verifySignature(
  secret: string,
  body: string,
  header: string | undefined,
  options: VerifyOptions = {},
): boolean {
  if (!header) return false;
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.split('=', 2).map((text) => text.trim());
    if (key === 't' && value && /^\d+$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && value) signatures.push(value);
  }
  if (timestamp === null || signatures.length === 0) return false;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(signPayload(secret, timestamp, body), 'hex');
  return signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
