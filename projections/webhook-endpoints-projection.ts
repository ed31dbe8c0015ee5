import { objectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { webhookEndpointView, type WebhookEndpointDoc } from './views/webhook-endpoint-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** GET /webhook-endpoints[/{id}] (filter: deleted). */
export const webhookEndpointsCollection = objectCollection<WebhookEndpointDoc>(
  'webhook_endpoints',
  'Webhook endpoint',
  scopedIndexes('_deleted'),
);

/** `webhook-endpoints`: one document per webhook endpoint. */
export const webhookEndpointsProjection = viewProjection(
  'webhook-endpoints',
  webhookEndpointsCollection,
  webhookEndpointView,
);
