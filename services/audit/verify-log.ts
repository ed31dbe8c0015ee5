import type { EventStore } from '../../packages/eventstore/event-store.ts';
import { ChainVerifier, type ChainBreak } from './chain-verifier.ts';
import type { LogCheckpoint } from './log-checkpoints.ts';

const PAGE_SIZE = 1_000;

export interface LogVerification {
  /** Events checked (of the account, when one was given). */
  checked: number;
  /** Checkpoints found intact. */
  checkpoints: number;
  /** The first break, in log order; null when the log is intact. */
  firstBreak: ChainBreak | CheckpointBreak | null;
}

/** A checkpoint whose digest the log no longer gives: events before it were removed, inserted or changed. */
export interface CheckpointBreak {
  checkpoint: string;
  position: number;
  reason: string;
}

/**
 * `audit verify`: recomputes every stream's chain from the log (only the account's streams when
 * one is given) and the whole log's digest at each checkpoint, and reports the first break.
 */
export async function verifyLog(
  events: EventStore,
  options: { accountId?: string; checkpoints: LogCheckpoint[]; onProgress?: (position: number) => void },
): Promise<LogVerification> {
  const verifier = new ChainVerifier(options.accountId);
  const pending = [...options.checkpoints];
  let intact = 0;
  let count = 0;
  const checkpointBreak = (): CheckpointBreak | null => {
    const checkpoint = pending.shift()!;
    if (verifier.logDigest === checkpoint.digest && count === checkpoint.events) {
      intact += 1;
      return null;
    }
    return {
      checkpoint: checkpoint.id,
      position: checkpoint.position,
      reason: `the log up to position ${checkpoint.position} no longer gives the digest recorded at ${new Date(checkpoint.created * 1000).toISOString()} (${count} events where ${checkpoint.events} were recorded): events were removed, inserted or changed`,
    };
  };
  let position = 0;
  for (;;) {
    const batch = await events.readAll({ afterPosition: position, maxCount: PAGE_SIZE });
    for (const event of batch) {
      while (pending.length > 0 && event.position > pending[0]!.position) {
        const broken = checkpointBreak();
        if (broken) return { checked: verifier.checked, checkpoints: intact, firstBreak: broken };
      }
      const broken = verifier.check(event);
      count += 1;
      if (broken) return { checked: verifier.checked, checkpoints: intact, firstBreak: broken };
      position = event.position;
    }
    options.onProgress?.(position);
    if (batch.length < PAGE_SIZE) break;
  }
  while (pending.length > 0) {
    const broken = checkpointBreak();
    if (broken) return { checked: verifier.checked, checkpoints: intact, firstBreak: broken };
  }
  return { checked: verifier.checked, checkpoints: intact, firstBreak: null };
}
