import { randomBytes } from 'node:crypto';
import type { ResourceName, resources } from '../domain/resources.ts';

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

/**
 * Ids that name no API resource: request ids, vault references, event logs, offer images, API keys,
 * and the client object ids a payer's page may know (`client_char_…`, `client_pm_…`).
 */
type InternalIdPrefix = 'req' | 'vault' | 'log' | 'img' | 'key' | 'client_char' | 'client_pm';

/** Prefixes of object ids (spec: Conventions): every resource's, from the resource list, and the internal ones. */
export type IdPrefix = (typeof resources)[ResourceName]['idPrefix'] | InternalIdPrefix;

export const newId = (prefix: IdPrefix): string => `${prefix}_${randomBase62()}`;
