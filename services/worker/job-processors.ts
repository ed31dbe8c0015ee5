import type { Platform } from '../platform.ts';
import type { DueWorkSource } from './due-work.ts';
import { networkOutcomeProcessor, networkOutcomesDue } from './network-outcome-jobs.ts';
import { paymentMethodChargeProcessor, paymentMethodChargesDue } from './payment-method-charge-jobs.ts';
import { subscriptionCapturesOwed, subscriptionsDue, testClockAdvancesUnfinished } from './subscription-due-work.ts';
import { subscriptionProcessors } from './subscription-processors.ts';
import { unansweredIntentProcessor, unansweredIntentsDue } from './unanswered-intent-jobs.ts';
import { webhookDeliveryProcessor } from './webhook-delivery-processor.ts';
import { webhookDueDeliveries } from './webhook-due-deliveries.ts';
import type { JobProcessor } from './worker.ts';

/** Every queue the worker role serves. Each resource that needs background work adds its processor here. */
export const jobProcessors = (platform: Platform): JobProcessor[] => [
  networkOutcomeProcessor(platform),
  unansweredIntentProcessor(platform),
  webhookDeliveryProcessor(platform),
  ...subscriptionProcessors(platform),
  paymentMethodChargeProcessor(platform),
];

/** Every source of due work the scheduler scans. Each resource with background work adds its source here. */
export const dueWorkSources = (platform: Platform): DueWorkSource[] => [
  networkOutcomesDue(platform),
  unansweredIntentsDue(platform),
  webhookDueDeliveries(platform),
  subscriptionsDue(platform),
  subscriptionCapturesOwed(platform),
  testClockAdvancesUnfinished(platform),
  paymentMethodChargesDue(platform),
];
