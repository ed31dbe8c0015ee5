import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { Mode } from '../packages/domain/mode.ts';

/** Unix seconds at which the event happened on its business clock. */
export const occurredAtSeconds = (event: RecordedEvent): number =>
  Math.floor(Date.parse(event.metadata.occurredAt) / 1000);

/** Internal fields that scope a read-model document to its tenant, and its tie-breaking sort key. */
export interface TenantScope {
  _accountId: string;
  _mode: Mode;
  _seq: number;
}

/** The tenant scope of a document created by this event. */
export const tenantFields = (event: RecordedEvent): TenantScope => ({
  _accountId: event.metadata.accountId,
  _mode: event.metadata.mode,
  _seq: event.position,
});
