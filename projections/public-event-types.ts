import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { RefundSettled } from '../packages/domain/charge/charge-events.ts';
import { cardView } from './views/card-view.ts';
import { chargeView } from './views/charge-view.ts';
import { crossSaleOfferView } from './views/cross-sale-offer-view.ts';
import { customerView } from './views/customer-view.ts';
import type { ObjectView } from './views/object-view.ts';
import { planView } from './views/plan-view.ts';
import { subscriptionView } from './views/subscription-view.ts';

/** Public events one domain event produces: their `data` is the object of `view` after the event. */
export interface PublicEventRule {
  view: ObjectView;
  types: (event: RecordedEvent) => string[];
}

const always =
  (...types: string[]) =>
  (): string[] =>
    types;

const customer = customerView as unknown as ObjectView;
const card = cardView as unknown as ObjectView;
const charge = chargeView as unknown as ObjectView;
const plan = planView as unknown as ObjectView;
const subscription = subscriptionView as unknown as ObjectView;
const crossSaleOffer = crossSaleOfferView as unknown as ObjectView;

/** A charge's outcome shows on the subscription only when it changed the status (e.g. active → past_due). */
const statusChanged = (event: RecordedEvent): string[] => {
  const data = event.data as { status?: string; previousStatus?: string };
  return data.status !== data.previousStatus ? ['CUSTOMER_SUBSCRIPTION_UPDATED'] : [];
};

/** Every object view whose objects appear as event `data`. */
export const publicObjectViews: ObjectView[] = [customer, card, charge, plan, subscription, crossSaleOffer];

/**
 * Which public event types (spec: Events) each domain event produces, and with which object.
 * `docs/events.md` is the human-readable copy of this table; a test keeps both in step.
 */
export const publicEventRules: Readonly<Record<string, PublicEventRule[]>> = {
  CustomerCreated: [{ view: customer, types: always('CUSTOMER_CREATED') }],
  CustomerUpdated: [{ view: customer, types: always('CUSTOMER_UPDATED') }],
  CustomerDeleted: [{ view: customer, types: always('CUSTOMER_DELETED') }],
  DefaultCardChanged: [{ view: customer, types: always('CUSTOMER_UPDATED') }],
  CardAdded: [{ view: card, types: always('CUSTOMER_CARD_CREATED') }],
  CardUpdated: [{ view: card, types: always('CUSTOMER_CARD_UPDATED') }],
  CardDeleted: [{ view: card, types: always('CUSTOMER_CARD_DELETED') }],
  ChargeSucceeded: [{ view: charge, types: always('CHARGE_SUCCEEDED') }],
  ChargeFailed: [{ view: charge, types: always('CHARGE_FAILED') }],
  ChargeCaptured: [{ view: charge, types: always('CHARGE_CAPTURED') }],
  ChargeUpdated: [{ view: charge, types: always('CHARGE_UPDATED') }],
  // A refund shows on the charge once the network settled it: refunded, or failed (the charge's refund list changed).
  RefundSettled: [
    {
      view: charge,
      types: (event) =>
        (event.data as RefundSettled['data']).status === 'successful' ? ['CHARGE_REFUNDED'] : ['CHARGE_UPDATED'],
    },
  ],
  RefundUpdated: [{ view: charge, types: always('CHARGE_UPDATED') }],
  // Disputes: `data` is the charge, with `disputed: true` and its `dispute` (docs/disputes.md).
  DisputeOpened: [{ view: charge, types: always('CHARGE_DISPUTE_CREATED', 'CHARGE_DISPUTE_FUNDS_WITHDRAWN') }],
  DisputeEvidenceSubmitted: [{ view: charge, types: always('CHARGE_DISPUTE_UPDATED') }],
  DisputeWon: [
    { view: charge, types: always('CHARGE_DISPUTE_UPDATED', 'CHARGE_DISPUTE_WON', 'CHARGE_DISPUTE_FUNDS_RESTORED') },
  ],
  DisputeLost: [{ view: charge, types: always('CHARGE_DISPUTE_UPDATED', 'CHARGE_DISPUTE_LOST') }],
  // Payment-method charges (docs/payments.md): no event while the payer is away at the provider (the
  // spec has no type for a pending charge); the provider's answer decides the charge.
  PaymentMethodChargeProcessing: [{ view: charge, types: always('CHARGE_UPDATED') }],
  PaymentMethodChargeAuthorized: [{ view: charge, types: always('CHARGE_SUCCEEDED') }],
  PaymentMethodChargeFailed: [{ view: charge, types: always('CHARGE_FAILED') }],
  // The warning's verdict changes the charge's fraudDetails.
  FraudWarningReceived: [{ view: charge, types: always('CHARGE_UPDATED') }],
  PlanCreated: [{ view: plan, types: always('PLAN_CREATED') }],
  PlanUpdated: [{ view: plan, types: always('PLAN_UPDATED') }],
  PlanDeleted: [{ view: plan, types: always('PLAN_DELETED') }],
  // Subscriptions: every status or period change is an update; cancellation (at once or at period end) a deletion.
  SubscriptionCreated: [{ view: subscription, types: always('CUSTOMER_SUBSCRIPTION_CREATED') }],
  SubscriptionUpdated: [{ view: subscription, types: always('CUSTOMER_SUBSCRIPTION_UPDATED') }],
  SubscriptionPlanChanged: [{ view: subscription, types: always('CUSTOMER_SUBSCRIPTION_UPDATED') }],
  SubscriptionPeriodStarted: [{ view: subscription, types: always('CUSTOMER_SUBSCRIPTION_UPDATED') }],
  SubscriptionCancellationScheduled: [{ view: subscription, types: always('CUSTOMER_SUBSCRIPTION_UPDATED') }],
  SubscriptionPaymentSucceeded: [{ view: subscription, types: statusChanged }],
  SubscriptionPaymentFailed: [{ view: subscription, types: statusChanged }],
  SubscriptionCanceled: [{ view: subscription, types: always('CUSTOMER_SUBSCRIPTION_DELETED') }],
  CrossSaleOfferCreated: [{ view: crossSaleOffer, types: always('CROSS_SALE_OFFER_CREATED') }],
  CrossSaleOfferUpdated: [{ view: crossSaleOffer, types: always('CROSS_SALE_OFFER_UPDATED') }],
  CrossSaleOfferDeleted: [{ view: crossSaleOffer, types: always('CROSS_SALE_OFFER_DELETED') }],
};
