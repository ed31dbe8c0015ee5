import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 text; 24 characters carry ~143 bits, enough that ids never collide. */
export function randomBase62(length = 24): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const byte = bytes[i]!;
    // Reject bytes that would bias the distribution (248..255).
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out.length === length ? out : out + randomBase62(length - out.length);
}

/** Prefixes of the spec's object ids (spec: Conventions), plus the ones this service adds. */
export type IdPrefix =
  | 'char'
  | 'card'
  | 'cust'
  | 'sub'
  | 'plan'
  | 'event'
  | 'tok'
  | 'blr'
  | 'cso'
  | 'cr'
  | 're'
  | 'log'
  | 'img'
  | 'acct'
  | 'key'
  | 'vault'
  | 'req'
  | 'dp'
  | 'fw'
  | 'we'
  | 'clock'
  | 'pm'
  | 'file'
  | 'client_pm'
  | 'client_char';

export const newId = (prefix: IdPrefix): string => `${prefix}_${randomBase62()}`;
