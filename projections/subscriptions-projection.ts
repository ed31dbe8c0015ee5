import { subscriptionView } from './views/subscription-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** `subscriptions`: GET /subscriptions[/{id}] and per customer (filters: customerId, deleted), and a test clock's subscriptions. */
export const subscriptionsProjection = viewProjection(
  'subscriptions',
  'subscriptions',
  scopedIndexes('customerId', '_deleted', '_testClockId'),
  subscriptionView,
);
