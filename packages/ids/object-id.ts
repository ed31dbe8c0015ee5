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

type ResourceIdPrefix = (typeof resources)[ResourceName]['idPrefix'];

/** Prefixes of object ids (spec: Conventions): every resource's, from the resource list, and the internal ones. */
export type IdPrefix = ResourceIdPrefix | InternalIdPrefix;

/** An internal prefix that a resource uses too; the constraint makes such a clash fail to compile. */
export type InternalPrefixClash<Clash extends never = Extract<InternalIdPrefix, ResourceIdPrefix>> = Clash;

export const newId = (prefix: IdPrefix): string => `${prefix}_${randomBase62()}`;
