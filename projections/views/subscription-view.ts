import type { CrossSaleChargeReference } from '../../packages/domain/charge/charge-events.ts';
import type { SubscriptionEvent, SubscriptionStatus } from '../../packages/domain/subscription/subscription-events.ts';
import {
  evolveSubscription,
  initialSubscriptionState,
  type SubscriptionFields,
  type SubscriptionState,
} from '../../packages/domain/subscription/subscription-state.ts';
import type { ProjectedEvent } from '../../packages/projection-runtime/projection.ts';
import { occurredAtSeconds, tenantFields, type TenantScope } from '../event-time.ts';
import { objectView } from './object-view.ts';

/** A subscription as GET renders it (spec: Subscription). */
export interface SubscriptionObject extends Omit<
  SubscriptionFields,
  'subscriptionId' | 'testClockId' | 'shipping' | 'billing'
> {
  id: string;
  /** Absent until set (client libraries expect no field rather than null). */
  shipping?: NonNullable<SubscriptionFields['shipping']>;
  billing?: NonNullable<SubscriptionFields['billing']>;
  created: number;
  objectType: 'subscription';
  status: SubscriptionStatus;
  /** Cross-sale charges of the checkout that created it, when that checkout made no charge of its own. */
  crossSaleCharges?: CrossSaleChargeReference[];
  /** Present once canceled, as on soft-deleted objects. */
  deleted?: true;
}

export interface SubscriptionDoc extends SubscriptionObject, TenantScope {
  /** Canceled subscriptions are listed only with deleted=true. */
  _deleted: boolean;
  _testClockId: string | null;
  /** The domain state the object is rendered from: the view and the decider can never disagree. */
  _state: SubscriptionState;
}

/** Every subscription event goes through the decider's own `evolve`; the object renders the state. */
function evolved(current: SubscriptionDoc | null, event: ProjectedEvent<SubscriptionEvent>): SubscriptionDoc | null {
  if (!current && event.type !== 'SubscriptionCreated') return current;
  const state = evolveSubscription(current?._state ?? initialSubscriptionState(), event);
  if (state.status === 'none') return current;
  const scope = current
    ? { _accountId: current._accountId, _mode: current._mode, _seq: current._seq }
    : tenantFields(event);
  return {
    id: state.subscriptionId,
    created: current?.created ?? occurredAtSeconds(event),
    objectType: 'subscription',
    planId: state.planId,
    customerId: state.customerId,
    quantity: state.quantity,
    captureCharges: state.captureCharges,
    status: state.status,
    remainingBillingCycles: state.remainingBillingCycles,
    start: state.start,
    currentPeriodStart: state.currentPeriodStart,
    currentPeriodEnd: state.currentPeriodEnd,
    canceledAt: state.canceledAt,
    endedAt: state.endedAt,
    trialStart: state.trialStart,
    trialEnd: state.trialEnd,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    // Never set (or cleared): absent, as client libraries expect, rather than null.
    ...(state.shipping ? { shipping: state.shipping } : {}),
    ...(state.billing ? { billing: state.billing } : {}),
    merchantAccountId: state.merchantAccountId,
    metadata: state.metadata,
    ...(state.crossSaleCharges ? { crossSaleCharges: state.crossSaleCharges } : {}),
    ...(state.status === 'canceled' ? { deleted: true as const } : {}),
    ...scope,
    _deleted: state.status === 'canceled',
    _testClockId: state.testClockId,
    _state: state,
  };
}

/** A subscription as GET renders it. A canceled one carries `deleted: true`, as soft-deleted objects do. */
export const subscriptionView = objectView<SubscriptionDoc, SubscriptionEvent>({
  objectId: (event) => event.data.subscriptionId,
  on: {
    SubscriptionCreated: evolved,
    SubscriptionUpdated: evolved,
    SubscriptionPlanChanged: evolved,
    SubscriptionPeriodStarted: evolved,
    SubscriptionPaymentStarted: evolved,
    SubscriptionPaymentSucceeded: evolved,
    SubscriptionPaymentFailed: evolved,
    SubscriptionCancellationScheduled: evolved,
    SubscriptionCanceled: evolved,
    SubscriptionCrossSaleChargeAdded: evolved,
  },
});
