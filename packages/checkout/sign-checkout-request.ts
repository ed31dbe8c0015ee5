import { createHmac } from 'node:crypto';

/**
 * Signs a checkout request for the hosted checkout (spec: "Checkout request signing"): the HMAC
 * SHA-256 of the request's JSON text keyed with the secret key, as hexadecimal, then
 * `signature|json`, encoded as BASE64. For merchants' Node servers and the CLI
 * (`npm run cli -- checkout sign`); it uses nothing but Node's own crypto module.
 *
 * The JSON text is signed exactly as given when `request` is a string, so a merchant may
 * serialise it however they like; an object is serialised with `JSON.stringify`.
 */
export function signCheckoutRequest(request: object | string, secretKey: string): string {
  const json = typeof request === 'string' ? request : JSON.stringify(request);
  const signature = createHmac('sha256', secretKey).update(json, 'utf8').digest('hex');
  return Buffer.from(`${signature}|${json}`, 'utf8').toString('base64');
}
