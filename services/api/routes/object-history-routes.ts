import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { RecordedEvent } from '../../../packages/eventstore/event-log.ts';
import { occurredAtSeconds } from '../../../projections/event-time.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { CursorNotFoundError } from '../../../packages/readstore/document-store.ts';
import type { ListParameters } from '../object-reader.ts';
import { listOf } from '../schemas/common-schemas.ts';
import { historyEntrySchema, listObjectHistoryQuery, objectIdParams } from '../schemas/object-history-schemas.ts';

const tag = 'Object history';

export function objectHistoryRoutes({ streams }: ApiDependencies): AnyRouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/objects/:objectId/history',
      summary: "List the domain events of an object's stream, newest first (auditors: docs/audit.md)",
      tag,
      params: objectIdParams,
      query: listObjectHistoryQuery,
      response: listOf(historyEntrySchema),
      async handler(request) {
        const { events } = await streams.history(request.params.objectId, request.auth);
        return page(events.map(historyEntry).reverse(), request.query);
      },
    }),
  ];
}

function historyEntry(event: RecordedEvent) {
  return {
    id: event.id,
    objectType: 'history_entry' as const,
    created: occurredAtSeconds(event),
    type: event.type,
    revision: event.revision,
    actor: event.metadata.actor ?? null,
    requestId: event.metadata.requestId ?? null,
    idempotencyKey: event.metadata.idempotencyKey ?? null,
    data: event.data,
    hash: event.hash ?? null,
  };
}

type Entry = ReturnType<typeof historyEntry>;

/** One page of entries already newest first, with the cursors and `created` filter of every list. */
function page(entries: Entry[], { limit, startingAfterId, endingBeforeId, created }: ListParameters) {
  const inRange = entries.filter(
    ({ created: at }) =>
      (created?.gt === undefined || at > created.gt) &&
      (created?.gte === undefined || at >= created.gte) &&
      (created?.lt === undefined || at < created.lt) &&
      (created?.lte === undefined || at <= created.lte),
  );
  const at = (parameter: 'startingAfterId' | 'endingBeforeId', id: string): number => {
    const index = entries.findIndex((entry) => entry.id === id);
    if (index < 0) throw new CursorNotFoundError(parameter, id);
    return index;
  };
  if (startingAfterId === undefined && endingBeforeId !== undefined) {
    const end = at('endingBeforeId', endingBeforeId);
    const before = inRange.filter((entry) => entries.indexOf(entry) < end);
    return { list: before.slice(-limit), hasMore: before.length > limit };
  }
  const start = startingAfterId === undefined ? -1 : at('startingAfterId', startingAfterId);
  const after = inRange.filter((entry) => entries.indexOf(entry) > start);
  return { list: after.slice(0, limit), hasMore: after.length > limit };
}
