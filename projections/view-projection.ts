import type { DomainEvent } from '../packages/domain/decider.ts';
import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { CollectionOptions, Document } from '../packages/readstore/document-store.ts';
import type { ProjectedEvent, Projection, ProjectionTransaction } from '../packages/projection-runtime/projection.ts';
import { ownedCollections, type ReadModelCollection } from '../packages/projection-runtime/read-model-collection.ts';
import type { ObjectView } from './views/object-view.ts';

/** Tenant scope first: every query filters on both (`docs/architecture.md`, "Tenancy"). */
export const scopedIndexes = (...fields: string[]): CollectionOptions => ({
  indexes: ['_accountId', '_mode', ...fields],
});

/** For collections every list of which filters on `_deleted` too: no index of the scope alone. */
export const deletableScopedIndexes = (...fields: string[]): CollectionOptions => ({
  ...scopedIndexes('_deleted', ...fields),
  scopeAloneListed: false,
});

/**
 * A projection of one object view into its collection: as-of reads fold the same view, and its
 * collection is what public events take their `data` from (`read-side.ts`). Without
 * type arguments, any view projection: as-of reads hand its view any recorded event, which
 * `accepts` sorts out.
 */
export interface ViewProjection<
  Doc extends Document = Document,
  E extends DomainEvent = DomainEvent,
> extends Projection {
  readonly collection: ReadModelCollection<Doc>;
  readonly view: ObjectView<Doc, E>;
}

export const isViewProjection = (projection: Projection): projection is ViewProjection =>
  'view' in projection && 'collection' in projection;

/**
 * The object after one event, as its read model stores it: null when the event is not the view's,
 * concerns another object or changes nothing (the document then stays as it was).
 */
export function objectAfter<Doc extends Document, E extends DomainEvent>(
  view: ObjectView<Doc, E>,
  objectId: string,
  current: Doc | null,
  event: RecordedEvent,
): Doc | null {
  if (!view.accepts(event) || view.objectId(event) !== objectId) return null;
  const next = view.fold(current, event);
  return next && next !== current ? next : null;
}

/** The object folded from its events, exactly as the read model would hold it after them; null before it exists. */
export function foldObject<Doc extends Document, E extends DomainEvent>(
  view: ObjectView<Doc, E>,
  objectId: string,
  events: readonly RecordedEvent[],
): Doc | null {
  let object: Doc | null = null;
  for (const event of events) object = objectAfter(view, objectId, object, event) ?? object;
  return object;
}

/**
 * The object as `collection` stores it before `event`, read only when the view's fold needs it
 * (`ObjectView.foldsCurrent`): an event rendered from itself alone gets null, unread.
 */
export async function storedObjectBefore<Doc extends Document, E extends DomainEvent>(
  view: ObjectView<Doc, E>,
  collection: ReadModelCollection<Doc>,
  objectId: string,
  event: ProjectedEvent<E>,
  tx: ProjectionTransaction,
): Promise<Doc | null> {
  return view.foldsCurrent(event) ? tx.get(collection, objectId) : null;
}

/** A read model holding one document per object, maintained by an object view. */
export function viewProjection<Doc extends Document, E extends DomainEvent>(
  name: string,
  collection: ReadModelCollection<Doc>,
  view: ObjectView<Doc, E>,
): ViewProjection<Doc, E> {
  return {
    name,
    collection,
    view,
    collections: ownedCollections(collection),
    handles: (type) => view.eventTypes.has(type),
    async apply(event: RecordedEvent, tx: ProjectionTransaction) {
      if (!view.accepts(event)) return;
      const id = view.objectId(event);
      if (id === null) return;
      // An event that changes nothing writes nothing.
      const next = objectAfter(view, id, await storedObjectBefore(view, collection, id, event, tx), event);
      if (next) tx.put(collection, next);
    },
  };
}
