import type { DomainEvent } from '../../packages/domain/decider.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { ProjectedEvent } from '../../packages/projection-runtime/projection.ts';
import type { Document } from '../../packages/readstore/document-store.ts';

/** Folds one event of type `Event` into the object (null: there is no object). */
export interface ViewHandler<Doc extends Document, Event extends DomainEvent> {
  // A method: its handlers of single types are also handlers of the whole union, which the
  // dispatch by `type` makes true at run time.
  handle(current: Doc | null, event: ProjectedEvent<Event>): Doc | null;
}

/** One handler per event type of `E`: a view that forgets a type of its union does not compile. */
export type ViewHandlers<Doc extends Document, E extends DomainEvent> = {
  readonly [Type in E['type']]: ViewHandler<Doc, Extract<E, { type: Type }>>['handle'];
};

/**
 * How one kind of API object is rendered from its stream: a pure fold of the domain events `E`
 * into the object exactly as GET returns it (`Doc`), plus internal `_` fields for scoping,
 * sorting and filtering. The resource projection stores it; the public events projection embeds
 * it as event `data`.
 */
export interface ObjectView<Doc extends Document = Document, E extends DomainEvent = DomainEvent> {
  /** The domain events that change objects of this kind: exactly the types of `E`. */
  readonly eventTypes: ReadonlySet<E['type']>;
  /** Whether a stored event is one of this view's (and so may be folded). */
  accepts(event: RecordedEvent): event is ProjectedEvent<E>;
  /** Which object an event concerns (e.g. `data.cardId` for card events), null when none. */
  objectId(event: ProjectedEvent<E>): string | null;
  fold(current: Doc | null, event: ProjectedEvent<E>): Doc | null;
  /**
   * Whether folding `event` needs the object as it stood before it: false for the events whose
   * handler renders the whole object from the event alone (`fromEventAlone`), for which a
   * projection need not read the stored object first.
   */
  foldsCurrent(event: ProjectedEvent<E>): boolean;
}

/** The handlers made by `fromEventAlone`. */
const handlersFromEventAlone = new WeakSet<object>();

/**
 * A handler that renders the whole object from its event, whatever was stored before (the event
 * that creates an object, or one that carries all of it): projections then skip reading the
 * stored object for it, a read a write would otherwise wait for.
 */
export function fromEventAlone<Doc extends Document, Event extends DomainEvent>(
  render: (event: ProjectedEvent<Event>) => Doc | null,
): ViewHandler<Doc, Event>['handle'] {
  const handler = (_current: Doc | null, event: ProjectedEvent<Event>) => render(event);
  handlersFromEventAlone.add(handler);
  return handler;
}

/** Builds a view from its handlers: the event types it accepts are the ones it has a handler for. */
export function objectView<Doc extends Document, E extends DomainEvent>(definition: {
  objectId: (event: ProjectedEvent<E>) => string | null;
  on: ViewHandlers<Doc, E>;
}): ObjectView<Doc, E> {
  const { on } = definition;
  const eventTypes = new Set(Object.keys(on).filter((type): type is E['type'] => Object.hasOwn(on, type)));
  const renderedFromEventAlone = new Set<string>(
    [...eventTypes].filter((type) => handlersFromEventAlone.has(on[type] as object)),
  );
  return {
    eventTypes,
    accepts: (event): event is ProjectedEvent<E> => eventTypes.has(event.type),
    objectId: definition.objectId,
    fold: (current, event) => foldWith(on, current, event),
    foldsCurrent: (event) => !renderedFromEventAlone.has(event.type),
  };
}

/** Calls the handler of the event's own type. */
function foldWith<Doc extends Document, E extends DomainEvent>(
  on: ViewHandlers<Doc, E>,
  current: Doc | null,
  event: ProjectedEvent<E>,
): Doc | null {
  const type: E['type'] = event.type;
  const handler: ViewHandler<Doc, E>['handle'] = on[type];
  return handler(current, event);
}

/** Fields of a document that API clients never see: the `_` ones. */
type InternalField<Doc> = Extract<keyof Doc, `_${string}`>;

/** A document as API clients see it: without its internal fields (of each member of a union). */
export type PublicObject<Doc> = Doc extends unknown ? Omit<Doc, InternalField<Doc>> : never;

/** Drops internal fields: what API clients see. (By key: no array of entries per field, every answer and public event.) */
export function publicObject<Doc extends object>(doc: Doc): PublicObject<Doc> {
  const fields = doc as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) if (key.charCodeAt(0) !== UNDERSCORE) out[key] = fields[key];
  return out as PublicObject<Doc>;
}

const UNDERSCORE = '_'.charCodeAt(0);
