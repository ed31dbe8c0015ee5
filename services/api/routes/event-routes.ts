import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { listOf } from '../schemas/common-schemas.ts';
import { eventIdParams, eventSchemas, type PublicEventCatalog } from '../schemas/event-schemas.ts';
import { publicEventsCollection } from '../../../projections/public-events-projection.ts';
import { eventWithImageAddress } from '../offer-image-address.ts';

const tag = 'Events';

export function eventRoutes({ reader }: ApiDependencies, publicEvents: PublicEventCatalog): AnyRouteDefinition[] {
  const { eventSchema, listEventsQuery } = eventSchemas(publicEvents);
  return [
    defineRoute({
      method: 'get',
      path: '/events/:eventId',
      summary: 'Retrieve an event',
      tag,
      params: eventIdParams,
      response: eventSchema,
      handler: async (request) =>
        eventWithImageAddress(await reader.get(publicEventsCollection, request.params.eventId, request.auth), request),
    }),
    defineRoute({
      method: 'get',
      path: '/events',
      summary: 'List events, newest first',
      tag,
      query: listEventsQuery,
      response: listOf(eventSchema),
      handler: async (request) => {
        const { type, ...page } = request.query;
        const { list, hasMore } = await reader.list(publicEventsCollection, request.auth, page, { type });
        return { list: list.map((event) => eventWithImageAddress(event, request)), hasMore };
      },
    }),
  ];
}
