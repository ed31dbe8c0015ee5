import type { ChargeCaptured } from '../packages/domain/charge/charge-events.ts';
import type { Mode } from '../packages/domain/mode.ts';
import type { SubscriptionEvent } from '../packages/domain/subscription/subscription-events.ts';
import { nextStep, type DueStep } from '../packages/domain/subscription/subscription-schedule.ts';
import {
  evolveSubscription,
  initialSubscriptionState,
  type SubscriptionState,
} from '../packages/domain/subscription/subscription-state.ts';
import type { ProjectedEvent, ProjectionTransaction } from '../packages/projection-runtime/projection.ts';
import { ownedCollections, readModelCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { eventProjection } from './event-projection.ts';
import { occurredAtSeconds } from './event-time.ts';

/**
 * How long a charge recorded as started may stay unsettled before the scheduler finishes it
 * itself: longer than a live run takes, so that it only picks up the work of dead workers.
 */
export const PAYMENT_RESUME_AFTER_SECONDS = 60;

/**
 * One document per subscription: its next due step. `created` is when the step falls due (the
 * read store lists and filters by `created`), so the scheduler asks for `created <= now`.
 */
export interface SubscriptionDueDoc {
  /** The subscription's id. */
  id: string;
  created: number;
  _seq: number;
  step: DueStep | null;
  _accountId: string;
  _mode: Mode;
  _due: boolean;
  /** Subscriptions on a test clock are advanced by their clock, not by real time. */
  _testClockId: string | null;
  _state: SubscriptionState;
}

/** An authorized subscription charge still to be captured (captureCharges = true). */
export interface OwedCaptureDoc {
  /** The charge's id. */
  id: string;
  created: number;
  _seq: number;
  subscriptionId: string;
  _accountId: string;
  _mode: Mode;
}

export const subscriptionDueCollection = readModelCollection<SubscriptionDueDoc>('subscription_due', {
  indexes: ['_due', '_testClockId'],
});
export const subscriptionCapturesCollection = readModelCollection<OwedCaptureDoc>('subscription_captures');

/** Every subscription event moves the subscription's schedule: through the decider's own `evolve`. */
async function scheduleAfter(event: ProjectedEvent<SubscriptionEvent>, tx: ProjectionTransaction): Promise<void> {
  const id = event.data.subscriptionId;
  const current = await tx.get(subscriptionDueCollection, id);
  if (!current && event.type !== 'SubscriptionCreated') return;
  const state = evolveSubscription(current?._state ?? initialSubscriptionState(), event);
  if (state.status === 'none') return;
  const step = nextStep(state);
  const dueAt = step === null ? 0 : step.kind === 'payment' ? step.at + PAYMENT_RESUME_AFTER_SECONDS : step.at;
  tx.put(subscriptionDueCollection, {
    id,
    created: dueAt,
    _seq: event.position,
    step,
    _accountId: event.metadata.accountId,
    _mode: event.metadata.mode,
    _due: step !== null,
    _testClockId: state.testClockId,
    _state: state,
  });
  if (event.type === 'SubscriptionPaymentSucceeded' && event.data.capture) {
    tx.put(subscriptionCapturesCollection, {
      id: event.data.chargeId,
      created: occurredAtSeconds(event),
      _seq: event.position,
      subscriptionId: id,
      _accountId: event.metadata.accountId,
      _mode: event.metadata.mode,
    });
  }
}

/**
 * `subscription-schedule`: the due work the worker scheduler derives jobs from (`docs/subscriptions.md`):
 * `subscription_due` (trial ends, renewals, retries, period-end cancellations, billing-cycle ends,
 * unsettled charges) and `subscription_captures` (authorizations to capture).
 */
export const subscriptionDueWorkProjection = eventProjection<SubscriptionEvent | ChargeCaptured>({
  name: 'subscription-schedule',
  collections: ownedCollections(subscriptionDueCollection, subscriptionCapturesCollection),
  on: {
    SubscriptionCreated: scheduleAfter,
    SubscriptionUpdated: scheduleAfter,
    SubscriptionPlanChanged: scheduleAfter,
    SubscriptionPeriodStarted: scheduleAfter,
    SubscriptionPaymentStarted: scheduleAfter,
    SubscriptionPaymentSucceeded: scheduleAfter,
    SubscriptionPaymentFailed: scheduleAfter,
    SubscriptionCancellationScheduled: scheduleAfter,
    SubscriptionCanceled: scheduleAfter,
    // Changes nothing due, but keeps the state the next steps are computed from whole.
    SubscriptionCrossSaleChargeAdded: scheduleAfter,
    async ChargeCaptured(event, tx) {
      const { chargeId } = event.data;
      if (await tx.get(subscriptionCapturesCollection, chargeId)) tx.delete(subscriptionCapturesCollection, chargeId);
    },
  },
});
