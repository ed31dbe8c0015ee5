import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { Document } from '../packages/readstore/document-store.ts';
import { collectionName, type ReadModelCollection } from '../packages/projection/read-model-collection.ts';
import type { Projection, ProjectionTransaction } from '../packages/projection/projection.ts';
import { publicEventsCollection, type PublicEventDoc } from './public-events-projection.ts';

/**
 * The public events a domain event produces, computed by the `events` projection's own code
 * (`publicEventsProjection`, built by the caller from the same public objects), so
 * that another projection sees exactly the events (ids, types, order) that GET /events shows.
 * A projection reads only its own collections, so the caller keeps a private copy of the state
 * the `events` projection needs (its object views) under `<prefix><collection>`; the public events
 * themselves are returned, not stored.
 */
export async function publicEventsOf(
  publicEventsProjection: Projection,
  event: RecordedEvent,
  tx: ProjectionTransaction,
  prefix: string,
): Promise<PublicEventDoc[]> {
  const produced: PublicEventDoc[] = [];
  const privateCopy: ProjectionTransaction = {
    get: <T extends Document>(collection: ReadModelCollection<T> | string, id: string) =>
      tx.get<T>(`${prefix}${collectionName(collection)}`, id),
    put(collection, doc) {
      if (collectionName(collection) === PUBLIC_EVENTS) {
        if (isPublicEvent(doc)) produced.push(doc);
      } else tx.put(`${prefix}${collectionName(collection)}`, doc);
    },
    delete(collection, id) {
      if (collectionName(collection) !== PUBLIC_EVENTS) tx.delete(`${prefix}${collectionName(collection)}`, id);
    },
  };
  await publicEventsProjection.apply(event, privateCopy);
  return produced;
}

const PUBLIC_EVENTS = publicEventsCollection.name;

const isPublicEvent = (doc: Document): doc is PublicEventDoc => 'objectType' in doc && doc.objectType === 'event';

/** The collections a private copy needs, named with the caller's prefix. */
export const privateCopyCollections = (publicEventsProjection: Projection, prefix: string): Record<string, object> =>
  Object.fromEntries(
    Object.keys(publicEventsProjection.collections)
      .filter((collection) => collection !== PUBLIC_EVENTS)
      .map((collection) => [`${prefix}${collection}`, {}]),
  );
