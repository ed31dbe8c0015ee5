import { GENESIS_HASH } from '../../packages/eventstore/event-hash.ts';
import type { EventMetadata, EventStore, RecordedEvent } from '../../packages/eventstore/event-store.ts';
import { occurredAtSeconds } from '../../projections/event-time.ts';

/**
 * One line of an export (`docs/audit.md`): an event exactly as recorded (data in its recorded
 * shape, so that its hash can be recomputed), where it is in the log and in its stream, and the
 * hash of the event before it in its stream.
 */
export interface ExportedEvent {
  position: number;
  streamId: string;
  revision: number;
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  recordedAt: string;
  previousHash: string;
  /** Null for an event recorded before the log kept hashes and not sealed since. */
  hash: string | null;
}

const PAGE_SIZE = 1_000;

/**
 * The events of an account's streams in log order, those that happened (business time) between
 * `from` and `to` inclusive when given. The whole log is read, since the owner of a stream is the
 * account of its first event; `onProgress` hears the position reached.
 */
export async function* exportAccount(
  events: EventStore,
  options: { accountId: string; from?: number; to?: number; onProgress?: (position: number) => void },
): AsyncGenerator<ExportedEvent> {
  const owners = new Map<string, string>();
  const lastHashes = new Map<string, string | null>();
  let position = 0;
  for (;;) {
    const batch = await events.readAll({ afterPosition: position, maxCount: PAGE_SIZE });
    for (const event of batch) {
      position = event.position;
      if (!owners.has(event.streamId)) owners.set(event.streamId, event.metadata.accountId);
      const previousHash = lastHashes.get(event.streamId) ?? GENESIS_HASH;
      lastHashes.set(event.streamId, event.hash ?? null);
      if (owners.get(event.streamId) !== options.accountId || !within(event, options)) continue;
      yield exported(event, previousHash);
    }
    options.onProgress?.(position);
    if (batch.length < PAGE_SIZE) return;
  }
}

function within(event: RecordedEvent, { from, to }: { from?: number; to?: number }): boolean {
  const at = occurredAtSeconds(event);
  return (from === undefined || at >= from) && (to === undefined || at <= to);
}

function exported(event: RecordedEvent, previousHash: string): ExportedEvent {
  return {
    position: event.position,
    streamId: event.streamId,
    revision: event.revision,
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
    recordedAt: event.recordedAt.toISOString(),
    previousHash,
    hash: event.hash ?? null,
  };
}
