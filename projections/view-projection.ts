import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { CollectionOptions, Document } from '../packages/readstore/document-store.ts';
import type { Projection, ProjectionTransaction } from '../packages/projection/projection.ts';
import type { ObjectView } from './views/object-view.ts';

/** Tenant scope first: every query filters on both (`docs/architecture.md`, "Tenancy"). */
export const scopedIndexes = (...fields: string[]): CollectionOptions => ({
  indexes: ['_accountId', '_mode', ...fields],
});

/** A read model holding one document per object, maintained by an object view. */
export function viewProjection<T extends Document>(
  name: string,
  collection: string,
  options: CollectionOptions,
  view: ObjectView<T>,
): Projection {
  return {
    name,
    collections: { [collection]: options },
    handles: (type) => view.eventTypes.has(type),
    async apply(event: RecordedEvent, tx: ProjectionTransaction) {
      const id = view.objectId(event);
      if (id === null) return;
      const next = view.fold(await tx.get<T>(collection, id), event);
      if (next) tx.put(collection, next);
    },
  };
}
