import {
  webhookEndpointResource,
  webhookEndpointEventTypes,
} from '../../packages/domain/webhook-endpoint/webhook-endpoint-events.ts';
import { WebhookEndpointCommands } from '../../packages/commands/webhook-endpoint-commands.ts';
import { webhookEndpointReadSide } from '../../projections/resources/webhook-endpoint-read-side.ts';
import { webhookEndpointRoutes } from '../api/routes/webhook-endpoint-routes.ts';
import { webhookEndpointsCollection } from '../../projections/webhook-endpoints-projection.ts';
import { webhookEndpointSchemas } from '../api/schemas/webhook-endpoint-schemas.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly webhookEndpoints: WebhookEndpointCommands;
  }
}

export const webhookEndpointModule = resourceModule({
  identity: webhookEndpointResource,
  events: webhookEndpointEventTypes,
  readSide: webhookEndpointReadSide,
  objects: resourceObjects({
    collection: webhookEndpointsCollection,
    schema: (catalog) => webhookEndpointSchemas(catalog).webhookEndpointSchema,
    folded: webhookEndpointEventTypes,
  }),
  commands: {
    webhookEndpoints: (wiring) => new WebhookEndpointCommands(wiring.aggregates, wiring.vault),
  },
  routes: webhookEndpointRoutes,
});
