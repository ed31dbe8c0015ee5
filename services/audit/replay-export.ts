import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import { upcastRecordedEvent } from '../../packages/eventstore/upcast-recorded-event.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { objectAfter } from '../../projections/view-projection.ts';
import { viewProjections } from '../resources/registries.ts';
import { ChainVerifier, type ChainBreak } from './chain-verifier.ts';
import type { ExportedEvent } from './export-account.ts';

export interface Replay {
  events: number;
  streams: number;
  /** Every object the events render, by id, as its read model would hold it after them. */
  objects: Map<string, Document>;
  /** The first event whose hash or place in its stream is not right, or the first line that is no event; null when intact. */
  firstBreak: ChainBreak | { line: number; reason: string } | null;
}

/**
 * `audit replay`: folds an export offline, without the running service. It checks every event's
 * hash against its content and the hash before it (the chain of each stream, from the first
 * exported event of it), and folds the events into the objects with the views the read models are
 * built with. Folding stops at the first break: what follows it cannot be trusted.
 */
export async function replayExport(lines: AsyncIterable<string>): Promise<Replay> {
  const verifier = new ChainVerifier();
  const objects = new Map<string, Document>();
  const streams = new Set<string>();
  const views = [...viewProjections.values()].map((projection) => projection.view);
  let lineNumber = 0;
  let events = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    const exported = parse(line);
    if (!exported)
      return {
        events,
        streams: streams.size,
        objects,
        firstBreak: { line: lineNumber, reason: 'not an exported event' },
      };
    const event = recorded(exported);
    const broken = verifier.check(event, exported.previousHash);
    if (broken) return { events, streams: streams.size, objects, firstBreak: broken };
    events += 1;
    streams.add(event.streamId);
    const current = upcastRecordedEvent(event);
    for (const view of views) {
      if (!view.accepts(current)) continue;
      const id = view.objectId(current);
      if (id === null) continue;
      const next = objectAfter(view, id, objects.get(id) ?? null, current);
      if (next) objects.set(id, next);
    }
  }
  return { events, streams: streams.size, objects, firstBreak: null };
}

function parse(line: string): ExportedEvent | null {
  try {
    const value = JSON.parse(line) as Partial<ExportedEvent> | null;
    const valid =
      value !== null &&
      typeof value === 'object' &&
      typeof value.id === 'string' &&
      typeof value.streamId === 'string' &&
      typeof value.type === 'string' &&
      Number.isSafeInteger(value.revision) &&
      Number.isSafeInteger(value.position) &&
      typeof value.previousHash === 'string' &&
      typeof value.data === 'object' &&
      typeof value.metadata === 'object';
    return valid ? (value as ExportedEvent) : null;
  } catch {
    return null;
  }
}

function recorded(exported: ExportedEvent): RecordedEvent {
  return {
    id: exported.id,
    streamId: exported.streamId,
    revision: exported.revision,
    position: exported.position,
    type: exported.type,
    data: exported.data,
    metadata: exported.metadata,
    recordedAt: new Date(exported.recordedAt),
    ...(exported.hash !== null && { hash: exported.hash }),
  };
}
