import type { DomainEvent } from '../packages/domain/decider.ts';
import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { ProjectedEvent, Projection, ProjectionTransaction } from '../packages/projection-runtime/projection.ts';
import type { ReadModels } from '../packages/projection-runtime/read-models.ts';
import type { ObjectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { storedObjectBefore, type ViewProjection } from './view-projection.ts';
import type { Document } from '../packages/readstore/document-store.ts';

/** The read side of one resource (`docs/architecture.md`, "Resource modules"). */
export interface ReadSide<PublicType extends string = string> {
  /**
   * The resource's read models (each projection name unique across the service). Read models
   * built from the public events of every resource (public events, webhook deliveries) are made
   * from them: the resource list hands every resource's `publicEvents` over.
   */
  readonly projections:
    readonly Projection[] | ((everyPublicObject: readonly PublicObjectEvents[]) => readonly Projection[]);
  /** The public events (GET /events, webhooks) whose `data` is an object of this resource; null when none. */
  readonly publicEvents: PublicObjectEvents<PublicType> | null;
}

/** The read side of a resource whose objects live in another resource's streams (a card in its customer's). */
export interface HostedReadSide<PublicType extends string = string> extends ReadSide<PublicType> {
  readonly hosted: HostedObjects;
}

/** Where the objects of a hosted resource are read, and which object's stream holds each. */
export interface HostedObjects {
  readonly collection: ObjectCollection<Document>;
  /** The object's document and the id of the object whose stream holds it; null when there is no such object. */
  find(readModels: ReadModels, objectId: string): Promise<{ doc: Document; hostId: string } | null>;
}

export const hostedObjects = <Doc extends Document>(
  collection: ObjectCollection<Doc>,
  hostId: (doc: Doc) => string,
): HostedObjects => ({
  collection,
  async find(readModels, objectId) {
    const doc = await readModels.collection(collection).get(objectId);
    return doc ? { doc, hostId: hostId(doc) } : null;
  },
});

/** The public events whose `data` is an object of one view, as the `events` projection uses them. */
export interface PublicObjectEvents<PublicType extends string = string> {
  /** Every public event type of these objects (spec: Events), in documentation order. */
  readonly types: readonly PublicType[];
  /** The domain event types the mapping names (each produces zero or more public events). */
  readonly domainEventTypes: readonly string[];
  /** Whether the event changes an object of the view. */
  changes(eventType: string): boolean;
  /** The projection that stores these objects as of their latest event (what `objectAfter` reads). */
  readonly source: Projection;
  /**
   * The object right after the event, or null: folds the event into the object as the source
   * projection holds it just before that event (read within the batch, written by the source only).
   */
  objectAfter(event: RecordedEvent, tx: ProjectionTransaction): Promise<Document | null>;
  /** The public event types the event produces, in order (none for most changes). */
  produced(event: RecordedEvent): readonly PublicType[];
}

/** The public event types one domain event produces: always the same ones, or chosen by its data. */
type Produces<E extends DomainEvent, PublicType extends string> =
  readonly PublicType[] | ((event: ProjectedEvent<E>) => readonly PublicType[]);

/** What each event type of `E` produces. */
type PublicEventRules<E extends DomainEvent, PublicType extends string> = {
  readonly [Type in E['type']]: Produces<Extract<E, { type: Type }>, PublicType>;
};

/**
 * Public events of the objects of one view projection. `of` names every domain event the view folds, so adding an
 * event type to the view fails to compile until the mapping says what it produces (`[]`: the
 * object changes, but no public event of this object says so); it may only produce the public
 * event types listed in `types`.
 */
export function publicEvents<D extends Document, E extends DomainEvent, const PublicType extends string>(
  source: ViewProjection<D, E>,
  types: readonly PublicType[],
  of: PublicEventRules<E, NoInfer<PublicType>>,
): PublicObjectEvents<PublicType> {
  const { view } = source;
  return {
    types,
    domainEventTypes: Object.keys(of),
    source,
    changes: (eventType) => view.eventTypes.has(eventType),
    async objectAfter(event, tx) {
      if (!view.accepts(event)) return null;
      const objectId = view.objectId(event);
      if (objectId === null) return null;
      return view.fold(await storedObjectBefore(view, source.collection, objectId, event, tx), event);
    },
    produced: (event) => (view.accepts(event) ? producedBy(of, event) : []),
  };
}

/** Calls the rule of the event's own type. */
function producedBy<E extends DomainEvent, PublicType extends string>(
  of: PublicEventRules<E, PublicType>,
  event: ProjectedEvent<E>,
): readonly PublicType[] {
  // The rule under an event's type only ever receives events of that type.
  const rule = of[event.type as E['type']] as Produces<E, PublicType>;
  return typeof rule === 'function' ? rule(event) : rule;
}
