import { webhookDeliveryResource } from '../../packages/domain/webhook-delivery/webhook-delivery-events.ts';
import { webhookDeliveryReadSide } from '../../projections/resources/webhook-delivery-read-side.ts';
import { resourceModule } from './resource-module.ts';

export const webhookDeliveryModule = resourceModule({
  identity: webhookDeliveryResource,
  readSide: webhookDeliveryReadSide,
  commands: {},
  routes: null,
});
