import { publicEvents, type ReadSide } from '../read-side.ts';
import { subscriptionDueWorkProjection } from '../subscription-due-work-projection.ts';
import { subscriptionsProjection } from '../subscriptions-projection.ts';

/**
 * A charge's outcome shows on the subscription only when it changed the status (e.g. active →
 * past_due). The outcome of the first charge of a subscription without a trial is when the
 * subscription is announced: CUSTOMER_SUBSCRIPTION_CREATED then carries the status it starts
 * with (`active`, or `incomplete` when that charge failed), never a transient `incomplete`.
 */
const paymentOutcome = (event: {
  data: { status: string; previousStatus: string | null };
}): ('CUSTOMER_SUBSCRIPTION_CREATED' | 'CUSTOMER_SUBSCRIPTION_UPDATED')[] => {
  if (event.data.previousStatus === 'incomplete') return ['CUSTOMER_SUBSCRIPTION_CREATED'];
  return event.data.status !== event.data.previousStatus ? ['CUSTOMER_SUBSCRIPTION_UPDATED'] : [];
};

/** A subscription without a trial is announced once its first charge settled (see paymentOutcome). */
const subscriptionCreated = (event: { data: { status: string } }): 'CUSTOMER_SUBSCRIPTION_CREATED'[] =>
  event.data.status === 'incomplete' ? [] : ['CUSTOMER_SUBSCRIPTION_CREATED'];

/**
 * Subscriptions, and the due work the worker's scheduler finds in `subscription-schedule`.
 * Every status or period change is an update; cancellation (at once or at period end) a deletion.
 */
export const subscriptionReadSide = {
  projections: [subscriptionsProjection, subscriptionDueWorkProjection],
  publicEvents: publicEvents(
    subscriptionsProjection,
    ['CUSTOMER_SUBSCRIPTION_CREATED', 'CUSTOMER_SUBSCRIPTION_UPDATED', 'CUSTOMER_SUBSCRIPTION_DELETED'],
    {
      SubscriptionCreated: subscriptionCreated,
      SubscriptionUpdated: ['CUSTOMER_SUBSCRIPTION_UPDATED'],
      SubscriptionPlanChanged: ['CUSTOMER_SUBSCRIPTION_UPDATED'],
      SubscriptionPeriodStarted: ['CUSTOMER_SUBSCRIPTION_UPDATED'],
      SubscriptionPaymentStarted: [],
      SubscriptionPaymentSucceeded: paymentOutcome,
      SubscriptionPaymentFailed: paymentOutcome,
      SubscriptionCancellationScheduled: ['CUSTOMER_SUBSCRIPTION_UPDATED'],
      SubscriptionCrossSaleChargeAdded: ['CUSTOMER_SUBSCRIPTION_UPDATED'],
      SubscriptionCanceled: ['CUSTOMER_SUBSCRIPTION_DELETED'],
    },
  ),
} satisfies ReadSide;
