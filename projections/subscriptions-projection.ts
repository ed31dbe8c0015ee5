import { objectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { subscriptionView, type SubscriptionDoc } from './views/subscription-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** GET /subscriptions[/{id}] and per customer (filters: customerId, deleted), and a test clock's subscriptions. */
export const subscriptionsCollection = objectCollection<SubscriptionDoc>(
  'subscriptions',
  'Subscription',
  scopedIndexes('customerId', '_deleted', '_testClockId'),
);

/** `subscriptions`: one document per subscription. */
export const subscriptionsProjection = viewProjection('subscriptions', subscriptionsCollection, subscriptionView);
