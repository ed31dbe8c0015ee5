import { publicEvents, type ReadSide } from '../read-side.ts';
import { subscriptionDueWorkProjection } from '../subscription-due-work-projection.ts';
import { subscriptionsProjection } from '../subscriptions-projection.ts';
import { subscriptionView } from '../views/subscription-view.ts';

/** A charge's outcome shows on the subscription only when it changed the status (e.g. active → past_due). */
const statusChanged = (event: {
  data: { status: string; previousStatus: string | null };
}): 'CUSTOMER_SUBSCRIPTION_UPDATED'[] =>
  event.data.status !== event.data.previousStatus ? ['CUSTOMER_SUBSCRIPTION_UPDATED'] : [];

/**
 * Subscriptions, and the due work the worker's scheduler finds in `subscription-schedule`.
 * Every status or period change is an update; cancellation (at once or at period end) a deletion.
 */
export const subscriptionReadSide = {
  projections: [subscriptionsProjection, subscriptionDueWorkProjection],
  publicEvents: publicEvents(
    subscriptionView,
    ['CUSTOMER_SUBSCRIPTION_CREATED', 'CUSTOMER_SUBSCRIPTION_UPDATED', 'CUSTOMER_SUBSCRIPTION_DELETED'],
    {
      SubscriptionCreated: ['CUSTOMER_SUBSCRIPTION_CREATED'],
      SubscriptionUpdated: ['CUSTOMER_SUBSCRIPTION_UPDATED'],
      SubscriptionPlanChanged: ['CUSTOMER_SUBSCRIPTION_UPDATED'],
      SubscriptionPeriodStarted: ['CUSTOMER_SUBSCRIPTION_UPDATED'],
      SubscriptionPaymentStarted: [],
      SubscriptionPaymentSucceeded: statusChanged,
      SubscriptionPaymentFailed: statusChanged,
      SubscriptionCancellationScheduled: ['CUSTOMER_SUBSCRIPTION_UPDATED'],
      SubscriptionCanceled: ['CUSTOMER_SUBSCRIPTION_DELETED'],
    },
  ),
} satisfies ReadSide;
