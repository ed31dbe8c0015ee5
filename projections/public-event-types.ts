import type { RecordedEvent } from '../packages/eventstore/event-store.ts';

/**
 * Which public event types (spec: Events) each domain event produces. `docs/events.md` is the
 * human-readable copy of this table; keep both in step.
 */
export const publicEventTypes: Readonly<Record<string, (event: RecordedEvent) => string[]>> = {
  CustomerCreated: () => ['CUSTOMER_CREATED'],
  CustomerUpdated: () => ['CUSTOMER_UPDATED'],
  CustomerDeleted: () => ['CUSTOMER_DELETED'],
};
