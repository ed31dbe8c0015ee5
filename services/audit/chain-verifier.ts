import { createHash } from 'node:crypto';
import { eventHash, GENESIS_HASH } from '../../packages/eventstore/event-hash.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';

/** The first place where the log is not what was recorded (`docs/audit.md`). */
export interface ChainBreak {
  position: number;
  streamId: string;
  revision: number;
  eventId: string;
  reason: string;
}

interface StreamChain {
  accountId: string;
  nextRevision: number;
  hash: string;
}

/**
 * Recomputes the hash chains of the log, event by event in log order: each stream's chain
 * (`packages/eventstore/event-hash.ts`) and the digest of the whole log that checkpoints record.
 * The same code checks the running store (`audit verify`) and an export (`audit replay`).
 */
export class ChainVerifier {
  private readonly streams = new Map<string, StreamChain>();
  /** Events checked so far (of the account, when one is given). */
  checked = 0;
  /** Running digest of every event's hash in log order: what a checkpoint at this position records. */
  logDigest = GENESIS_HASH;

  /** With an account, only the streams it owns (the account of their first event) are checked. */
  constructor(private readonly accountId?: string) {}

  /**
   * Checks the next event of the log. `previousHash` is the hash the event claims to follow
   * (an export states it), for the first event seen of a stream that does not start at revision 0.
   */
  check(event: RecordedEvent, previousHash?: string): ChainBreak | null {
    const known = this.streams.get(event.streamId);
    const chain: StreamChain = known ?? {
      accountId: event.metadata.accountId,
      nextRevision: previousHash === undefined ? 0 : event.revision,
      hash: previousHash ?? GENESIS_HASH,
    };
    const expectedHash = eventHash(chain.hash, event);
    this.logDigest = foldDigest(this.logDigest, event.hash ?? expectedHash);
    this.streams.set(event.streamId, { ...chain, nextRevision: event.revision + 1, hash: event.hash ?? expectedHash });
    if (this.accountId !== undefined && chain.accountId !== this.accountId) return null;
    this.checked += 1;

    const at = { position: event.position, streamId: event.streamId, revision: event.revision, eventId: event.id };
    if (event.revision !== chain.nextRevision)
      return {
        ...at,
        reason: `revision ${event.revision} follows revision ${chain.nextRevision - 1}: events are missing or out of place`,
      };
    if (previousHash !== undefined && known && previousHash !== chain.hash)
      return { ...at, reason: 'the hash it claims to follow is not the hash of the event before it' };
    if (event.hash === undefined)
      return { ...at, reason: 'the event has no hash: the log was not sealed (`audit seal-existing`)' };
    if (event.hash !== expectedHash)
      return { ...at, reason: 'the event or one before it in its stream was changed after it was recorded' };
    return null;
  }
}

/** The next digest of the whole log: SHA-256 of the digest so far and the event's hash. */
export function foldDigest(digest: string, eventHashValue: string): string {
  return createHash('sha256').update(digest).update(eventHashValue).digest('hex');
}
