import type { EventStore } from './event-store.ts';

export type { RecordedEvent } from './event-store.ts';

/**
 * The event log as its readers see it: streams, the whole log and its head, and no appends. The
 * API is handed this (history, as-of reads, the head its reads wait for); only the command
 * services' aggregate store appends.
 */
export type EventLog = Pick<EventStore, 'readStream' | 'readAll' | 'headPosition'>;
