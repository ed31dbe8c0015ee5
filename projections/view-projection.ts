import type { DomainEvent } from '../packages/domain/decider.ts';
import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { CollectionOptions, Document } from '../packages/readstore/document-store.ts';
import type { Projection, ProjectionTransaction } from '../packages/projection/projection.ts';
import { ownedCollections, type ReadModelCollection } from '../packages/projection/read-model-collection.ts';
import type { ObjectView } from './views/object-view.ts';

/** Tenant scope first: every query filters on both (`docs/architecture.md`, "Tenancy"). */
export const scopedIndexes = (...fields: string[]): CollectionOptions => ({
  indexes: ['_accountId', '_mode', ...fields],
});

/** A read model holding one document per object, maintained by an object view. */
export function viewProjection<Doc extends Document, E extends DomainEvent>(
  name: string,
  collection: ReadModelCollection<Doc>,
  view: ObjectView<Doc, E>,
): Projection {
  return {
    name,
    collections: ownedCollections(collection),
    handles: (type) => view.eventTypes.has(type),
    async apply(event: RecordedEvent, tx: ProjectionTransaction) {
      if (!view.accepts(event)) return;
      const id = view.objectId(event);
      if (id === null) return;
      const current = await tx.get(collection, id);
      const next = view.fold(current, event);
      // An event that changes nothing writes nothing.
      if (next && next !== current) tx.put(collection, next);
    },
  };
}
