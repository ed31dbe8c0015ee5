import { createHmac, timingSafeEqual } from 'node:crypto';

/** A signed checkout request taken apart: the hexadecimal signature and the JSON text it signs. */
export interface SignedCheckoutRequest {
  signature: string;
  json: string;
}

/** Signed requests longer than this are refused unread (they travel in a URL). */
export const SIGNED_REQUEST_MAX_LENGTH = 8192;

/**
 * Decodes `base64(signature|json)`; null when the text is not one (not BASE64, no pipe, or a
 * signature that is not 64 hexadecimal digits).
 */
export function decodeSignedCheckoutRequest(signed: string): SignedCheckoutRequest | null {
  if (signed.length === 0 || signed.length > SIGNED_REQUEST_MAX_LENGTH) return null;
  // URL-safe BASE64 and stripped padding are accepted too: the request often travels in a URL.
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(signed)) return null;
  const text = Buffer.from(signed.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  const pipe = text.indexOf('|');
  if (pipe < 0) return null;
  const signature = text.slice(0, pipe);
  if (!/^[0-9a-fA-F]{64}$/.test(signature)) return null;
  return { signature: signature.toLowerCase(), json: text.slice(pipe + 1) };
}

/** Whether the signature is the HMAC SHA-256 of the JSON text under this secret key (constant time). */
export function signatureMatches(request: SignedCheckoutRequest, secretKey: string): boolean {
  const expected = createHmac('sha256', secretKey).update(request.json, 'utf8').digest();
  return timingSafeEqual(expected, Buffer.from(request.signature, 'hex'));
}
