import type { DomainEvent } from '../packages/domain/decider.ts';
import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { Projection, ProjectionTransaction } from '../packages/projection/projection.ts';
import type { Document } from '../packages/readstore/document-store.ts';

/** The read side of one resource (`docs/architecture.md`, "Resource modules"). */
export interface ReadSide<PublicType extends string = string> {
  /** The resource's read models (each projection name unique across the service). */
  readonly projections: readonly Projection[];
  /** The public events (GET /events, webhooks) whose `data` is an object of this resource; null when none. */
  readonly publicEvents: PublicObjectEvents<PublicType> | null;
}

/** The public events whose `data` is an object of one view, as the `events` projection uses them. */
export interface PublicObjectEvents<PublicType extends string = string> {
  /** Every public event type of these objects (spec: Events), in documentation order. */
  readonly types: readonly PublicType[];
  /** The domain event types the mapping names (each produces zero or more public events). */
  readonly domainEventTypes: readonly string[];
  /** Whether the event changes an object of the view. */
  changes(eventType: string): boolean;
  /** Folds the event into the copy of the object kept in `collection`; the object after it, or null. */
  foldCopy(event: RecordedEvent, tx: ProjectionTransaction, collection: string): Promise<Document | null>;
  /** The public event types the event produces, in order (none for most changes). */
  produced(event: RecordedEvent): readonly PublicType[];
}

/** The public event types one domain event produces: always the same ones, or chosen by its data. */
type Produces<E extends DomainEvent, PublicType extends string> =
  readonly PublicType[] | ((event: RecordedEvent & E) => readonly PublicType[]);

/** What each event type of `E` produces. */
type PublicEventRules<E extends DomainEvent, PublicType extends string> = {
  readonly [Type in E['type']]: Produces<Extract<E, { type: Type }>, PublicType>;
};

/** What the public events need of an object view: which events it folds, and the fold. */
interface FoldingView<D extends Document, E extends DomainEvent> {
  readonly eventTypes: ReadonlySet<string>;
  objectId(event: RecordedEvent & E): string | null;
  fold(current: D | null, event: RecordedEvent & E): D | null;
}

/**
 * Public events of one object view, which folds the domain events `E`. `of` names every type of
 * `E`, so adding an event type fails to compile until the mapping says what it produces (`[]`:
 * the object changes, but no public event of this object says so).
 */
export const publicEvents =
  <E extends DomainEvent>() =>
  <D extends Document, const PublicType extends string>(
    view: FoldingView<D, E>,
    types: readonly PublicType[],
    of: PublicEventRules<E, PublicType>,
  ): PublicObjectEvents<PublicType> => {
    // The view folds exactly the events of E: one whose type it names is one of them.
    const folded = (event: RecordedEvent): (RecordedEvent & E) | null =>
      view.eventTypes.has(event.type) ? (event as RecordedEvent & E) : null;
    return {
      types,
      domainEventTypes: Object.keys(of),
      changes: (eventType) => view.eventTypes.has(eventType),
      async foldCopy(recorded, tx, collection) {
        const event = folded(recorded);
        const objectId = event && view.objectId(event);
        if (!event || objectId === null) return null;
        const object = view.fold(await tx.get<D>(collection, objectId), event);
        if (object) tx.put(collection, object);
        return object;
      },
      produced(recorded) {
        const event = folded(recorded);
        if (!event) return [];
        // The rule under an event's type only ever receives events of that type.
        const rule = of[event.type as E['type']] as Produces<E, PublicType> | undefined;
        if (rule === undefined) return [];
        return typeof rule === 'function' ? rule(event) : rule;
      },
    };
  };
