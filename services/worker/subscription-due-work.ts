import type { Document } from '../../packages/readstore/document-store.ts';
import { everyDocument } from '../../packages/readstore/every-document.ts';
import type { ReadModels } from '../../packages/projection-runtime/read-models.ts';
import type { ReadModelCollection } from '../../packages/projection-runtime/read-model-collection.ts';
import {
  subscriptionCapturesCollection,
  subscriptionDueCollection,
} from '../../projections/subscription-due-work-projection.ts';
import { testClocksCollection } from '../../projections/test-clocks-projection.ts';
import type { Platform } from '../platform.ts';
import type { DueWork, DueWorkSource } from './due-work.ts';
import {
  advanceJobId,
  advanceJobOptions,
  CAPTURES_QUEUE,
  captureJobId,
  captureJobOptions,
  stepJobId,
  stepJobOptions,
  SUBSCRIPTIONS_QUEUE,
  TEST_CLOCKS_QUEUE,
  type SubscriptionStepJob,
} from './subscription-jobs.ts';

/** At most this many documents per source and scan; the next scan takes the rest. */
const MAX_PER_SCAN = 1_000;

/**
 * Subscription steps due by real time (trial ends, renewals, retries, period-end cancellations,
 * billing-cycle ends, charges a dead worker left unsettled), for subscriptions whose customers are
 * not on a test clock. Steps due before the next scan are enqueued with the remaining delay.
 */
export function subscriptionsDue(platform: Platform): DueWorkSource {
  return {
    name: 'subscriptions',
    async findDue(now: Date): Promise<DueWork[]> {
      const nowMs = now.getTime();
      const horizon = Math.floor((nowMs + platform.config.schedulerIntervalMs) / 1000);
      const due = await listAll(
        platform.readModels,
        subscriptionDueCollection,
        { _due: true, _testClockId: null },
        horizon,
      );
      return due.flatMap((doc) => {
        if (!doc.step) return [];
        return [
          {
            queue: SUBSCRIPTIONS_QUEUE,
            name: doc.step.kind,
            jobId: stepJobId(doc.id, doc.step),
            data: {
              accountId: doc._accountId,
              mode: doc._mode,
              subscriptionId: doc.id,
              step: doc.step,
            } satisfies SubscriptionStepJob,
            options: { ...stepJobOptions, delayMs: Math.max(0, doc.created * 1000 - nowMs) },
          },
        ];
      });
    },
  };
}

/** Authorized subscription charges still to capture (their capture job was lost or failed). */
export function subscriptionCapturesOwed(platform: Platform): DueWorkSource {
  return {
    name: 'subscription-captures',
    async findDue(): Promise<DueWork[]> {
      const owed = await listAll(platform.readModels, subscriptionCapturesCollection, {});
      return owed.map((doc) => ({
        queue: CAPTURES_QUEUE,
        name: 'capture',
        jobId: captureJobId(doc.id),
        data: { accountId: doc._accountId, mode: doc._mode, subscriptionId: doc.subscriptionId, chargeId: doc.id },
        options: captureJobOptions,
      }));
    },
  };
}

/** Test clocks left `advancing` (their advance job was lost, failed, or its worker died). */
export function testClockAdvancesUnfinished(platform: Platform): DueWorkSource {
  return {
    name: 'test-clock-advances',
    async findDue(): Promise<DueWork[]> {
      const clocks = await listAll(platform.readModels, testClocksCollection, {
        status: 'advancing',
        _deleted: false,
      });
      return clocks.map((clock) => ({
        queue: TEST_CLOCKS_QUEUE,
        name: 'advance',
        jobId: advanceJobId(clock.id, clock.frozenTime),
        data: { accountId: clock._accountId, mode: clock._mode, testClockId: clock.id, frozenTime: clock.frozenTime },
        options: advanceJobOptions,
      }));
    },
  };
}

/** Every matching document (created at or before `until` when given), up to MAX_PER_SCAN. */
async function listAll<T extends Document>(
  readModels: ReadModels,
  collection: ReadModelCollection<T>,
  filter: Record<string, string | boolean | null>,
  until?: number,
): Promise<T[]> {
  return everyDocument(
    readModels.collection(collection),
    { filter, ...(until !== undefined ? { created: { lte: until } } : {}) },
    { max: MAX_PER_SCAN },
  );
}
