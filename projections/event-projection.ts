import type { DomainEvent } from '../packages/domain/decider.ts';
import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { CollectionOptions } from '../packages/readstore/document-store.ts';
import type { ProjectedEvent, Projection, ProjectionTransaction } from '../packages/projection-runtime/projection.ts';

/** Applies one event of type `Event` to the projection's collections. */
export interface EventHandler<Event extends DomainEvent> {
  // A method: its handlers of single types are also handlers of the whole union, which the
  // dispatch by `type` makes true at run time.
  handle(event: ProjectedEvent<Event>, tx: ProjectionTransaction): Promise<void> | void;
}

/** One handler per event type of `E`: a projection that forgets a type of its union does not compile. */
export type EventHandlers<E extends DomainEvent> = {
  readonly [Type in E['type']]: EventHandler<Extract<E, { type: Type }>>['handle'];
};

/** Handlers of the domain events `E`, dispatched by event type. */
export interface EventDispatch {
  handles(eventType: string): boolean;
  /** Applies the event when it is one of `E` (else does nothing). */
  apply(event: RecordedEvent, tx: ProjectionTransaction): Promise<void>;
}

export function eventDispatch<E extends DomainEvent>(on: EventHandlers<E>): EventDispatch {
  const eventTypes = new Set(Object.keys(on).filter((type): type is E['type'] => Object.hasOwn(on, type)));
  const accepts = (event: RecordedEvent): event is ProjectedEvent<E> => eventTypes.has(event.type);
  return {
    handles: (type) => eventTypes.has(type),
    async apply(event, tx) {
      if (!accepts(event)) return;
      const type: E['type'] = event.type;
      const handler: EventHandler<E>['handle'] = on[type];
      await handler(event, tx);
    },
  };
}

/** A projection of the domain events `E`, written as one handler per event type. */
export function eventProjection<E extends DomainEvent>(definition: {
  name: string;
  collections: Readonly<Record<string, CollectionOptions>>;
  on: EventHandlers<E>;
}): Projection {
  const dispatch = eventDispatch(definition.on);
  return {
    name: definition.name,
    collections: definition.collections,
    handles: dispatch.handles,
    apply: dispatch.apply,
  };
}
