import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';

/**
 * How one kind of API object is rendered from its stream: a pure fold of domain events into the
 * object exactly as GET returns it, plus internal `_` fields for scoping, sorting and filtering.
 * The resource projection stores it; the public events projection embeds it as event `data`.
 */
export interface ObjectView<T extends Document = Document> {
  /** The domain events that change objects of this kind. */
  readonly eventTypes: ReadonlySet<string>;
  /** Which object an event concerns (e.g. `data.cardId` for card events), null when none. */
  objectId(event: RecordedEvent): string | null;
  fold(current: T | null, event: RecordedEvent): T | null;
}

/** Drops internal fields: what API clients see. */
export function publicObject<T extends Record<string, unknown>>(doc: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) if (!key.startsWith('_')) out[key] = value;
  return out;
}
