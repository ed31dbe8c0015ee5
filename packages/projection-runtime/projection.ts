import type { DomainEvent } from '../domain/decider.ts';
import type { RecordedEvent } from '../eventstore/event-store.ts';
import type { CollectionOptions, Document } from '../readstore/document-store.ts';
import type { ReadModelCollection } from './read-model-collection.ts';

/** A stored event known to be one of the domain events `E`: `type` and `data` are typed. */
export type ProjectedEvent<E extends DomainEvent = DomainEvent> = RecordedEvent & E;

/**
 * What a projection sees while applying one batch of events: reads see the writes made earlier
 * in the same batch; writes are committed together with the checkpoint. Collections are named by
 * their descriptors, which carry the document type (a plain name reads untyped documents).
 */
export interface ProjectionTransaction {
  get<T extends Document>(collection: ReadModelCollection<T> | string, id: string): Promise<T | null>;
  put<T extends Document>(collection: ReadModelCollection<T> | string, doc: NoInfer<T>): void;
  delete(collection: ReadModelCollection<Document> | string, id: string): void;
}

/** A read model built from domain events. Must be deterministic: a rebuild gives identical documents. */
export interface Projection {
  readonly name: string;
  /** Logical collections this projection owns, with their list indexes. */
  readonly collections: Readonly<Record<string, CollectionOptions>>;
  /**
   * Projections whose collections this one reads, as they stood just before the event it applies
   * (the object views whose objects are public event `data`): they are projected in the same
   * batches, each event applied here first, and rebuilt together with this one. A document is so
   * stored once, by the projection that owns it.
   */
  readonly reads?: readonly Projection[];
  /** Whether this projection cares about an event type (others are skipped without reads). */
  handles(eventType: string): boolean;
  apply(event: RecordedEvent, tx: ProjectionTransaction): Promise<void>;
}

/** Physical collection of one build ("generation") of a projection (blue/green rebuilds). */
export const physicalCollectionName = (logical: string, generation: number): string => `${logical}__g${generation}`;

/** Checkpoint key of one build of a projection. */
export const checkpointKey = (projection: string, generation: number): string => `${projection}@${generation}`;
