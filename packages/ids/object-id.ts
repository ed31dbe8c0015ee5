import { createHash } from 'node:crypto';
import type { ResourceIdentity } from '../domain/resource-identity.ts';
import { takeRandomBytes } from './random-pool.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 text; 24 characters carry ~143 bits, enough that ids never collide. */
export function randomBase62(length = 24): string {
  let out = '';
  while (out.length < length) {
    const wanted = length - out.length;
    const bytes = takeRandomBytes(wanted * 2);
    out += base62(bytes, wanted);
    // Used bytes are never handed out again, nor left behind (some of this text becomes API keys).
    bytes.fill(0);
  }
  return out;
}

/** Up to `length` characters from the bytes (fewer when too many were rejected). */
function base62(bytes: Buffer, length: number): string {
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const byte = bytes[i]!;
    // Reject bytes that would bias the distribution (248..255).
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/**
 * Ids that name no API resource: request ids, vault references, event logs, offer images, API keys,
 * an account's upstream processors (`proc_…`), and the client object ids a payer's page may know
 * (`client_char_…`, `client_pm_…`). The resource list checks that no resource uses one of them.
 */
export type InternalIdPrefix = 'req' | 'vault' | 'log' | 'img' | 'key' | 'proc' | 'client_char' | 'client_pm';

/** What an id is made for: an object of a resource (the prefix of its identity), or an internal prefix. */
export type IdPrefix = ResourceIdentity | InternalIdPrefix;

const prefixOf = (of: IdPrefix): string => (typeof of === 'string' ? of : of.idPrefix);

/**
 * An id that is a function of `seed` and `role`, shaped like a random one: the same request run
 * twice (after a crash) gives its objects the same ids. `seed` must be secret-keyed and unique
 * per request (see `IdempotencyStore.requestToken`).
 */
export const derivedId = (of: IdPrefix, seed: string, role: string = prefixOf(of)): string =>
  `${prefixOf(of)}_${base62(createHash('sha512').update(`${seed}\n${role}`).digest(), 24)}`;

export const newId = (of: IdPrefix): string => `${prefixOf(of)}_${randomBase62()}`;

/** Whether `value` is an id made for `of` (it starts with that prefix and `_`): says nothing of whether it exists. */
export const isIdOf = (of: IdPrefix, value: string): boolean => value.startsWith(`${prefixOf(of)}_`);
