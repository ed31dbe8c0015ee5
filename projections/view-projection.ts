import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { CollectionOptions, Document } from '../packages/readstore/document-store.ts';
import type { Projection, ProjectionTransaction } from '../packages/projection/projection.ts';
import type { ObjectView } from './views/object-view.ts';

/** Tenant scope first: every query filters on both (DESIGN §4.9). */
export const scopedIndexes = (...fields: string[]): CollectionOptions => ({ indexes: ['_accountId', '_mode', ...fields] });

/**
 * A read model holding one document per object, maintained by an object view. The document's id
 * is the object's id, taken from the stream id (`<kind>-<objectId>`).
 */
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
      if (!event.streamId.startsWith(view.streamPrefix)) return;
      const id = event.streamId.slice(view.streamPrefix.length);
      const next = view.apply(await tx.get<T>(collection, id), event);
      if (next) tx.put(collection, next);
    },
  };
}
