import { createHash } from 'node:crypto';
import type { EventMetadata } from './event-store.ts';

/**
 * Tamper evidence of the log (`docs/audit.md`). Every event's hash is the SHA-256 of the event
 * (stream, revision, id, type, data, metadata: as canonical JSON, keys sorted) and of the hash of
 * the event before it in its stream, so a changed, removed or inserted event breaks the chain of
 * every later event of its stream. The first event of a stream chains to the genesis hash.
 */
export const GENESIS_HASH = '0'.repeat(64);

/** What a hash covers: the event as recorded, without where or when the store put it. */
export interface HashedContent {
  streamId: string;
  revision: number;
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

export function eventHash(previousHash: string, event: HashedContent): string {
  const content = canonicalJson({
    previousHash,
    streamId: event.streamId,
    revision: event.revision,
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
  });
  return createHash('sha256').update(content).digest('hex');
}

/** The hash of the last of a stream's events (in revision order, from revision 0): what the next one chains to. */
export function chainHead(events: readonly HashedContent[]): string {
  return events.reduce((previous, event) => eventHash(previous, event), GENESIS_HASH);
}

/**
 * JSON with object keys sorted at every level, so a store that gives keys back in another order
 * (or a JSON round trip) hashes the same; `undefined` fields are left out as JSON does.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
