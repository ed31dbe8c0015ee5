import { webhookEndpointView } from './views/webhook-endpoint-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** `webhook_endpoints`: GET /webhook-endpoints[/{id}] (filter: deleted). */
export const webhookEndpointsProjection = viewProjection(
  'webhook-endpoints',
  'webhook_endpoints',
  scopedIndexes('_deleted'),
  webhookEndpointView,
);
