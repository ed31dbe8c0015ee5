import type { EventStore } from '../../packages/eventstore/event-store.ts';
import { upcastRecordedEvent } from '../../packages/eventstore/upcast-recorded-event.ts';
import { intentStreamOfObject, streamOfObject } from './stream-of-object.ts';

/**
 * For auditors: an object's domain events in order, with when, what, who (key id), which
 * request and the tamper-evidence hash (`docs/audit.md`). Card numbers and CVCs never appear: events do not hold them. Older event shapes
 * are shown upcast to the current one, the way deciders and views see them. A charge's or credit's
 * events include those of its intent (`chargeAuthorization-…`, `creditTransfer-…`), in log order:
 * an intent whose request was cut short shows there, also when no charge or credit was recorded.
 */
export async function showStream(
  events: EventStore,
  objectId: string,
  asJson: boolean,
  write: (line: string) => void,
): Promise<boolean> {
  const streamIds = [streamOfObject(objectId), intentStreamOfObject(objectId)].filter((id) => id !== null);
  const recorded = (await Promise.all(streamIds.map((id) => events.readStream(id))))
    .flat()
    .sort((a, b) => a.position - b.position);
  if (recorded.length === 0) return false;
  for (const event of recorded.map(upcastRecordedEvent)) {
    const row = {
      revision: event.revision,
      occurredAt: event.metadata.occurredAt,
      type: event.type,
      actor: event.metadata.actor ?? null,
      requestId: event.metadata.requestId ?? null,
      idempotencyKey: event.metadata.idempotencyKey ?? null,
      mode: event.metadata.mode,
      schemaVersion: event.metadata.schemaVersion,
      hash: event.hash ?? null,
      data: event.data,
    };
    if (asJson) write(JSON.stringify(row));
    else {
      // The merchant chose the idempotency key: quoted, so that nothing in it can pass for another field.
      const idempotency = row.idempotencyKey === null ? '' : `  idempotency-key=${JSON.stringify(row.idempotencyKey)}`;
      write(
        `${row.occurredAt}  #${row.revision} ${row.type}  actor=${row.actor}  request=${row.requestId}${idempotency}\n` +
          `    hash=${row.hash ?? 'not sealed'}\n` +
          `    ${JSON.stringify(row.data)}`,
      );
    }
  }
  return true;
}
