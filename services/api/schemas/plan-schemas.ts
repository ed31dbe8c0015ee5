import { z } from 'zod';
import { p } from '../../../packages/http/params.ts';
import { amount, isoCurrency } from './money-schemas.ts';

/** Our limits (the spec sets none): at most 100 intervals per period, trials of at most two years. */
export const MAX_INTERVAL_COUNT = 100;
export const MAX_TRIAL_DAYS = 730;
export const MAX_BILLING_CYCLES = 10_000;

const fields = () => ({
  amount: amount('Amount charged each cycle, in minor units (multiplied by the subscription quantity)'),
  currency: isoCurrency(),
  interval: p.enum(['hour', 'day', 'week', 'month', 'year'], { description: 'Unit of the billing period' }),
  intervalCount: p.int({ min: 1, max: MAX_INTERVAL_COUNT, description: 'Intervals per billing period (default 1)' }),
  billingCycles: p
    .int({ min: 1, max: MAX_BILLING_CYCLES, description: 'Number of charges; null (or absent) means no limit' })
    .nullable(),
  name: p.string({ min: 1, max: 255, description: 'Name of the plan' }),
  trialPeriodDays: p
    .int({ min: 0, max: MAX_TRIAL_DAYS, description: 'Trial days of new subscriptions; null or 0 means no trial' })
    .nullable(),
  recursTo: p.id('plan', { description: 'Plan a subscription moves to after billingCycles charges' }).nullable(),
  metadata: p.metadata(),
});

export const createPlanBody = (() => {
  const f = fields();
  return p.object({
    amount: f.amount,
    currency: f.currency,
    interval: f.interval,
    intervalCount: f.intervalCount.optional(),
    name: f.name,
    billingCycles: f.billingCycles.optional(),
    trialPeriodDays: f.trialPeriodDays.optional(),
    recursTo: f.recursTo.optional(),
    metadata: f.metadata.optional(),
  });
})();

export const updatePlanBody = (() => {
  const f = fields();
  return p.object({
    amount: f.amount.optional(),
    currency: f.currency.optional(),
    interval: f.interval.optional(),
    intervalCount: f.intervalCount.optional(),
    name: f.name.optional(),
    billingCycles: f.billingCycles.optional(),
    trialPeriodDays: f.trialPeriodDays.optional(),
    recursTo: f.recursTo.optional(),
    metadata: f.metadata.optional(),
  });
})();

export const listPlansQuery = p.listQuery({
  deleted: p.bool({ description: 'true lists only deleted plans; default false' }).optional(),
});

export const planIdParams = z.object({ planId: z.string().meta({ description: 'Plan id (plan_…)' }) });

export const planSchema = z
  .object({
    id: z.string(),
    created: z.number().int(),
    objectType: z.literal('plan'),
    amount: z.number().int(),
    currency: z.string(),
    interval: z.enum(['hour', 'day', 'week', 'month', 'year']),
    intervalCount: z.number().int(),
    billingCycles: z.number().int().nullable(),
    name: z.string(),
    trialPeriodDays: z.number().int().nullable(),
    recursTo: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    deleted: z.literal(true).optional(),
  })
  .meta({ id: 'Plan' });
