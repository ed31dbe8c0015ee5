import {
  webhookDeliveryResource,
  webhookDeliveryEventTypes,
} from '../../packages/domain/webhook-delivery/webhook-delivery-events.ts';
import { webhookDeliveryReadSide } from '../../projections/resources/webhook-delivery-read-side.ts';
import { webhookDeliveriesCollection } from '../../projections/webhook-deliveries-projection.ts';
import { webhookEndpointSchemas } from '../api/schemas/webhook-endpoint-schemas.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

export const webhookDeliveryModule = resourceModule({
  identity: webhookDeliveryResource,
  events: webhookDeliveryEventTypes,
  readSide: webhookDeliveryReadSide,
  objects: resourceObjects({
    // Listed under their endpoint (`webhook-endpoint-routes.ts`).
    collection: webhookDeliveriesCollection,
    schema: (catalog) => webhookEndpointSchemas(catalog).webhookDeliverySchema,
  }),
  commands: {},
  routes: null,
});
