import { z } from 'zod';
import { p } from '../../../packages/http/params.ts';
import { billingObject, billingSchema, shippingObject, shippingSchema } from './address-schemas.ts';
import { cardReferenceSchema } from './card-schemas.ts';

/** Our limits (the spec sets none). */
export const MAX_QUANTITY = 10_000;
const MAX_CYCLES = 10_000;
const MAX_TIMESTAMP = 253_402_300_799;

const planId = () => p.id('plan', { description: 'Plan of the subscription' });
const quantity = () => p.int({ min: 1, max: MAX_QUANTITY, description: 'Multiplier of the plan amount (default 1)' });
const captureCharges = () =>
  p.bool({ description: 'false: charges are only authorized and must be captured by hand (default true)' });
const merchantAccountId = () => p.string({ max: 255, description: 'Merchant account of the charges' });
const customerId = () => p.id('cust', { description: 'Owner customer' });
const trialEnd = (description: string) =>
  p
    .int({ min: -1, max: MAX_TIMESTAMP, description })
    .refine((value) => value === -1 || value > 0, { error: 'must be a Unix timestamp in seconds, or -1' });

const createFields = {
  planId: planId(),
  quantity: quantity().optional(),
  captureCharges: captureCharges().optional(),
  trialEnd: trialEnd('End of the trial (overrides the plan’s trialPeriodDays); -1 starts without a trial').optional(),
  remainingBillingCycles: p
    .int({ min: 1, max: MAX_CYCLES, description: 'Billing cycles to charge, instead of the plan’s billingCycles' })
    .optional(),
  shipping: shippingSchema.optional(),
  billing: billingSchema.optional(),
  merchantAccountId: merchantAccountId().optional(),
  metadata: p.metadata().optional(),
  card: cardReferenceSchema.optional().meta({
    description:
      "A token, card details or a card id of the customer: becomes the customer's default card and is charged",
  }),
};

const updateFields = {
  planId: planId()
    .meta({ description: 'A new plan: starts a new period (and `start`) now, charged now unless trialing' })
    .optional(),
  quantity: quantity().optional(),
  captureCharges: captureCharges().optional(),
  trialEnd: trialEnd('While trialing: a new end of the trial, or -1 to end it (and charge) now').optional(),
  remainingBillingCycles: p
    .int({
      min: 0,
      max: MAX_CYCLES,
      description: 'Billing cycles left after the current one; null: unlimited; 0: ends at the current period’s end',
    })
    .nullable()
    .optional(),
  shipping: shippingSchema.nullable().optional(),
  billing: billingSchema.nullable().optional(),
  merchantAccountId: merchantAccountId().nullable().optional(),
  metadata: p.metadata().optional(),
};

export const createCustomerSubscriptionBody = p.object(createFields);
export const createSubscriptionBody = p.object({ customerId: customerId(), ...createFields });

export const updateCustomerSubscriptionBody = p.object(updateFields);
export const updateSubscriptionBody = p.object({
  customerId: customerId().meta({ description: 'When given, must be the owner' }).optional(),
  ...updateFields,
});

const atPeriodEnd = () => p.bool({ description: 'true: cancel at the end of the current period; default: at once' });
export const cancelCustomerSubscriptionParameters = p.object({ atPeriodEnd: atPeriodEnd().optional() });
export const cancelSubscriptionParameters = p.object({
  atPeriodEnd: atPeriodEnd().optional(),
  customerId: customerId().optional(),
});

const deleted = () => p.bool({ description: 'true lists only canceled subscriptions; default false' });
export const listCustomerSubscriptionsQuery = p.listQuery({ deleted: deleted().optional() });
export const listSubscriptionsQuery = p.listQuery({
  customerId: p.string({ max: 255, description: 'Only subscriptions of this customer' }).optional(),
  deleted: deleted().optional(),
});
export const getSubscriptionQuery = p.object({
  customerId: customerId().meta({ description: 'When given, must be the owner' }).optional(),
});

export const subscriptionIdParams = z.object({
  subscriptionId: z.string().meta({ description: 'Subscription id (sub_…)' }),
});
export const customerSubscriptionParams = z.object({
  customerId: z.string().meta({ description: 'Customer id (cust_…)' }),
  subscriptionId: z.string().meta({ description: 'Subscription id (sub_…)' }),
});

const timestamp = () => z.number().int();

export const subscriptionSchema = z
  .object({
    id: z.string(),
    created: timestamp(),
    objectType: z.literal('subscription'),
    planId: z.string(),
    customerId: z.string(),
    quantity: z.number().int(),
    captureCharges: z.boolean(),
    status: z.enum(['trialing', 'active', 'past_due', 'canceled', 'unpaid', 'incomplete']),
    remainingBillingCycles: z.number().int().nullable(),
    start: timestamp(),
    currentPeriodStart: timestamp(),
    currentPeriodEnd: timestamp(),
    canceledAt: timestamp().nullable(),
    endedAt: timestamp().nullable(),
    trialStart: timestamp().nullable(),
    trialEnd: timestamp().nullable(),
    cancelAtPeriodEnd: z.boolean(),
    shipping: shippingObject.optional().meta({ description: 'Absent until set' }),
    billing: billingObject.optional().meta({ description: 'Absent until set' }),
    merchantAccountId: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    crossSaleCharges: z
      .array(z.object({ accountId: z.string(), chargeId: z.string(), offerId: z.string() }))
      .optional()
      .meta({
        description:
          'Only when cross-sale offers were bought in the checkout that created it and that checkout made no charge of its own (a trial): each charge made for one, on the account of the offer’s owner',
      }),
    deleted: z.literal(true).optional().meta({ description: 'Present once canceled' }),
  })
  .meta({ id: 'Subscription' });
