import { everyDocument } from '../../packages/readstore/every-document.ts';
import type { EventStore } from '../../packages/eventstore/event-store.ts';
import { GENESIS_HASH, eventHash } from '../../packages/eventstore/event-hash.ts';
import type { Collection, DocumentStore } from '../../packages/readstore/document-store.ts';
import { foldDigest } from './chain-verifier.ts';

/**
 * A checkpoint over the whole log (`docs/audit.md`): the digest of every event's hash in log order
 * up to a position. Stream chains show an event was changed; checkpoints also show that events
 * were removed or inserted anywhere before the checkpoint, whole streams included.
 */
export interface LogCheckpoint {
  /** `ckpt_<position>`, zero-padded so that ids sort like positions. */
  id: string;
  /** Unix time it was recorded. */
  created: number;
  position: number;
  /** Events in the log up to the position. */
  events: number;
  digest: string;
}

const PAGE_SIZE = 1_000;

/** The checkpoints, kept in the operational state store (`state.sqlite` / `payments_state`), not in the log itself. */
export class LogCheckpoints {
  private readonly collection: Collection<LogCheckpoint>;

  constructor(stateStore: DocumentStore) {
    this.collection = stateStore.collection<LogCheckpoint>('audit-checkpoints');
  }

  /** Every checkpoint, oldest first. */
  async all(): Promise<LogCheckpoint[]> {
    const found = await everyDocument(this.collection, {}, { pageSize: PAGE_SIZE });
    return found.sort((a, b) => a.position - b.position);
  }

  /** The checkpoint at the highest position, or null before the first. */
  async latest(): Promise<LogCheckpoint | null> {
    // Newest first by the second they were recorded in; two in one second are told apart by position.
    const { list } = await this.collection.list({ limit: 10 });
    return list.reduce<LogCheckpoint | null>(
      (latest, each) => (latest && latest.position > each.position ? latest : each),
      null,
    );
  }

  /** How many checkpoints have been recorded. */
  count(): Promise<number> {
    return this.collection.count();
  }

  /**
   * Records a checkpoint at the log's head, continuing the digest of the last one; null when no
   * event was appended since. Events without a stored hash count with their recomputed hash.
   */
  async record(events: EventStore, now = new Date()): Promise<LogCheckpoint | null> {
    const last = (await this.all()).at(-1);
    let digest = last?.digest ?? GENESIS_HASH;
    let count = last?.events ?? 0;
    let position = last?.position ?? 0;
    for (;;) {
      const batch = await events.readAll({ afterPosition: position, maxCount: PAGE_SIZE });
      for (const event of batch) {
        const hash = event.hash ?? (await recomputedHash(events, event.streamId, event.revision));
        digest = foldDigest(digest, hash);
        count += 1;
        position = event.position;
      }
      if (batch.length < PAGE_SIZE) break;
    }
    if (last && position === last.position) return null;
    const checkpoint: LogCheckpoint = {
      id: `ckpt_${String(position).padStart(20, '0')}`,
      created: Math.floor(now.getTime() / 1000),
      position,
      events: count,
      digest,
    };
    await this.collection.put(checkpoint);
    return checkpoint;
  }
}

/** The hash of an event recorded before the log kept hashes: its stream's chain up to it. */
async function recomputedHash(events: EventStore, streamId: string, revision: number): Promise<string> {
  const stream = await events.readStream(streamId, { maxCount: revision + 1 });
  let previous = GENESIS_HASH;
  for (const event of stream) previous = event.hash ?? eventHash(previous, event);
  return previous;
}
