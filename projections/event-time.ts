import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { Mode } from '../packages/domain/mode.ts';

/** Unix seconds at which the event happened on its business clock. */
export const occurredAtSeconds = (event: RecordedEvent): number =>
  Math.floor(Date.parse(event.metadata.occurredAt) / 1000);

/** Fields that scope a read-model document to its tenant, and its tie-breaking sort key. */
export const tenantFields = (event: RecordedEvent): { _accountId: string; _mode: Mode; _seq: number } => ({
  _accountId: event.metadata.accountId,
  _mode: event.metadata.mode,
  _seq: event.position,
});
