import {
  subscriptionEventTypes,
  type SubscriptionEvent,
} from '../../packages/domain/subscription/subscription-events.ts';
import {
  evolveSubscription,
  initialSubscriptionState,
  type SubscriptionState,
} from '../../packages/domain/subscription/subscription-state.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import type { ObjectView } from './object-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';

export interface SubscriptionDoc extends Document {
  objectType: 'subscription';
  customerId: string;
  status: string;
  deleted?: true;
  _accountId: string;
  _mode: Mode;
  /** Canceled subscriptions are listed only with deleted=true. */
  _deleted: boolean;
  _testClockId: string | null;
  /** The domain state the object is rendered from: the view and the decider can never disagree. */
  _state: SubscriptionState;
}

/** A subscription as GET renders it (spec: Subscription). A canceled one carries `deleted: true`, as soft-deleted objects do. */
export const subscriptionView: ObjectView<SubscriptionDoc> = {
  eventTypes: new Set(subscriptionEventTypes),
  objectId: (event) => (event.data as { subscriptionId?: string }).subscriptionId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & SubscriptionEvent;
    if (!current && event.type !== 'SubscriptionCreated') return current;
    const state = evolveSubscription(current?._state ?? initialSubscriptionState(), event);
    if (state.status === 'none') return current;
    const scope = current
      ? { _accountId: current._accountId, _mode: current._mode, _seq: current._seq }
      : tenantFields(recorded);
    return {
      id: state.subscriptionId,
      created: current?.created ?? occurredAtSeconds(recorded),
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
      ...(state.status === 'canceled' ? { deleted: true as const } : {}),
      ...scope,
      _deleted: state.status === 'canceled',
      _testClockId: state.testClockId,
      _state: state,
    };
  },
};
