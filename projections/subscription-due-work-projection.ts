import type { ChargeCaptured } from '../packages/domain/charge/charge-events.ts';
import { subscriptionEventTypes, type SubscriptionEvent } from '../packages/domain/subscription/subscription-events.ts';
import { nextStep, type DueStep } from '../packages/domain/subscription/subscription-schedule.ts';
import {
  evolveSubscription,
  initialSubscriptionState,
  type SubscriptionState,
} from '../packages/domain/subscription/subscription-state.ts';
import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { Document } from '../packages/readstore/document-store.ts';
import type { Projection } from '../packages/projection/projection.ts';
import { occurredAtSeconds } from './event-time.ts';
import type { Mode } from '../packages/domain/mode.ts';

/**
 * How long a charge recorded as started may stay unsettled before the scheduler finishes it
 * itself: longer than a live run takes, so that it only picks up the work of dead workers.
 */
export const PAYMENT_RESUME_AFTER_SECONDS = 60;

/**
 * One document per subscription: its next due step. `created` is when the step falls due (the
 * read store lists and filters by `created`), so the scheduler asks for `created <= now`.
 */
export interface SubscriptionDueDoc extends Document {
  step: DueStep | null;
  _accountId: string;
  _mode: Mode;
  _due: boolean;
  /** Subscriptions on a test clock are advanced by their clock, not by real time. */
  _testClockId: string | null;
  _state: SubscriptionState;
}

/** An authorized subscription charge still to be captured (captureCharges = true). */
export interface OwedCaptureDoc extends Document {
  subscriptionId: string;
  _accountId: string;
  _mode: Mode;
}

const handled = new Set<string>([...subscriptionEventTypes, 'ChargeCaptured']);

/**
 * `subscription-schedule`: the due work the worker scheduler derives jobs from (`docs/architecture.md`, "Jobs are derived from state"):
 * `subscription_due` (trial ends, renewals, retries, period-end cancellations, billing-cycle ends,
 * unsettled charges) and `subscription_captures` (authorizations to capture).
 */
export const subscriptionDueWorkProjection: Projection = {
  name: 'subscription-schedule',
  collections: { subscription_due: { indexes: ['_due', '_testClockId'] }, subscription_captures: {} },
  handles: (type) => handled.has(type),
  async apply(recorded: RecordedEvent, tx) {
    if (recorded.type === 'ChargeCaptured') {
      const { chargeId } = (recorded as unknown as ChargeCaptured).data;
      if (await tx.get('subscription_captures', chargeId)) tx.delete('subscription_captures', chargeId);
      return;
    }
    const event = recorded as unknown as RecordedEvent & SubscriptionEvent;
    const id = event.data.subscriptionId;
    const current = await tx.get<SubscriptionDueDoc>('subscription_due', id);
    if (!current && event.type !== 'SubscriptionCreated') return;
    const state = evolveSubscription(current?._state ?? initialSubscriptionState(), event);
    if (state.status === 'none') return;
    const step = nextStep(state);
    const dueAt = step === null ? 0 : step.kind === 'payment' ? step.at + PAYMENT_RESUME_AFTER_SECONDS : step.at;
    tx.put('subscription_due', {
      id,
      created: dueAt,
      _seq: recorded.position,
      step,
      _accountId: recorded.metadata.accountId,
      _mode: recorded.metadata.mode,
      _due: step !== null,
      _testClockId: state.testClockId,
      _state: state,
    } satisfies SubscriptionDueDoc);
    if (event.type === 'SubscriptionPaymentSucceeded' && event.data.capture) {
      tx.put('subscription_captures', {
        id: event.data.chargeId,
        created: occurredAtSeconds(recorded),
        _seq: recorded.position,
        subscriptionId: id,
        _accountId: recorded.metadata.accountId,
        _mode: recorded.metadata.mode,
      } satisfies OwedCaptureDoc);
    }
  },
};
