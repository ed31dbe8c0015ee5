import { webhookEndpointResource } from '../../packages/domain/webhook-endpoint/webhook-endpoint-events.ts';
import { WebhookEndpointCommands } from '../../packages/commands/webhook-endpoint-commands.ts';
import { webhookEndpointReadSide } from '../../projections/resources/webhook-endpoint-read-side.ts';
import { webhookEndpointRoutes } from '../api/routes/webhook-endpoint-routes.ts';
import { resourceModule } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly webhookEndpoints: WebhookEndpointCommands;
  }
}

export const webhookEndpointModule = resourceModule({
  identity: webhookEndpointResource,
  readSide: webhookEndpointReadSide,
  commands: {
    webhookEndpoints: (wiring) => new WebhookEndpointCommands(wiring.aggregates, wiring.vault),
  },
  routes: webhookEndpointRoutes,
});
