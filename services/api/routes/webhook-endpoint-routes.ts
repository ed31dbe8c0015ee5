import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { commandContext } from '../request-command-context.ts';
import { deletedSchema, listOf } from '../schemas/common-schemas.ts';
import type { PublicEventCatalog } from '../schemas/event-schemas.ts';
import {
  listWebhookDeliveriesQuery,
  listWebhookEndpointsQuery,
  webhookEndpointIdParams,
  webhookEndpointSchemas,
} from '../schemas/webhook-endpoint-schemas.ts';
import { webhookDeliveriesCollection } from '../../../projections/webhook-deliveries-projection.ts';
import { webhookEndpointsCollection } from '../../../projections/webhook-endpoints-projection.ts';

const tag = 'Webhook endpoints';
const collection = webhookEndpointsCollection;

export function webhookEndpointRoutes(
  { commands, reader }: ApiDependencies,
  publicEvents: PublicEventCatalog,
): AnyRouteDefinition[] {
  const {
    createWebhookEndpointBody,
    updateWebhookEndpointBody,
    webhookEndpointSchema,
    createdWebhookEndpointSchema,
    webhookDeliverySchema,
  } = webhookEndpointSchemas(publicEvents);
  return [
    defineRoute({
      method: 'post',
      path: '/webhook-endpoints',
      summary: 'Create a webhook endpoint; the answer shows its signing secret, once',
      tag,
      body: createWebhookEndpointBody,
      response: createdWebhookEndpointSchema,
      async handler(request) {
        const outcome = await commands.webhookEndpoints.create(request.body, commandContext(request));
        const endpoint = await reader.getAfter(outcome.position, collection, outcome.id, request.auth);
        return { ...endpoint, secret: outcome.secret };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/webhook-endpoints/:endpointId',
      summary: 'Retrieve a webhook endpoint (deleted endpoints are returned with deleted: true)',
      tag,
      params: webhookEndpointIdParams,
      response: webhookEndpointSchema,
      handler: (request) => reader.get(collection, request.params.endpointId, request.auth),
    }),
    defineRoute({
      method: 'post',
      path: '/webhook-endpoints/:endpointId',
      summary: "Update a webhook endpoint's url, events, description or enabled",
      tag,
      params: webhookEndpointIdParams,
      body: updateWebhookEndpointBody,
      response: webhookEndpointSchema,
      async handler(request) {
        await reader.get(collection, request.params.endpointId, request.auth);
        const outcome = await commands.webhookEndpoints.update(
          request.params.endpointId,
          request.body,
          commandContext(request),
        );
        return reader.getAfter(outcome.position, collection, outcome.id, request.auth);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/webhook-endpoints/:endpointId',
      summary:
        'Delete a webhook endpoint (soft delete: still readable with deleted: true; pending deliveries are canceled)',
      tag,
      params: webhookEndpointIdParams,
      response: deletedSchema,
      async handler(request) {
        const outcome = await commands.webhookEndpoints.delete(request.params.endpointId, commandContext(request));
        await reader.getAfter(outcome.position, collection, outcome.id, request.auth);
        return { id: outcome.id };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/webhook-endpoints',
      summary: 'List webhook endpoints, newest first',
      tag,
      query: listWebhookEndpointsQuery,
      response: listOf(webhookEndpointSchema),
      handler: (request) => {
        const { deleted, ...page } = request.query;
        return reader.list(collection, request.auth, page, { _deleted: deleted ?? false });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/webhook-endpoints/:endpointId/deliveries',
      summary: "List an endpoint's deliveries with their attempts, newest event first",
      tag,
      params: webhookEndpointIdParams,
      query: listWebhookDeliveriesQuery,
      response: listOf(webhookDeliverySchema),
      async handler(request) {
        await reader.get(collection, request.params.endpointId, request.auth);
        const { status, eventId, ...page } = request.query;
        return reader.list(webhookDeliveriesCollection, request.auth, page, {
          endpointId: request.params.endpointId,
          status,
          eventId,
        });
      },
    }),
  ];
}
