import { z } from 'zod';
import { p } from '../../../packages/http/params.ts';
import { billingObject, billingSchema, shippingObject, shippingSchema } from './address-schemas.ts';
import { cardReferenceSchema, cardSchema } from './card-schemas.ts';
import { chargeDisputeSchema } from './charge-dispute-schema.ts';
import { amount, isoCurrency } from './money-schemas.ts';
import { threeDSecureInfoSchema } from './three-d-secure-schemas.ts';
import { paymentMethodReferenceSchema, paymentMethodSchema } from './payment-method-schemas.ts';

/** Where the payer returns after the provider: an absolute http(s) address. */
const returnUrl = () =>
  z
    .string({ error: 'must be a string' })
    .max(2048, { error: 'must be at most 2048 characters long' })
    .refine(
      (text) => {
        try {
          return ['http:', 'https:'].includes(new URL(text).protocol);
        } catch {
          return false;
        }
      },
      { error: 'must be an absolute http or https URL' },
    )
    .meta({ description: 'Where the payer is sent after the provider, with the query parameter clientObjectId added' });

const threeDSecureSchema = p.object({
  requireAttempt: p.bool({ description: 'Fail when 3-D Secure was not attempted' }).optional(),
  requireEnrolledCard: p.bool({ description: 'Fail when the card does not support 3-D Secure' }).optional(),
  requireSuccessfulLiabilityShiftForEnrolledCard: p
    .bool({ description: 'Fail when an enrolled card was not verified (default true)' })
    .optional(),
  external: p
    .object({
      version: p.enum(['2.1.0', '2.2.0']),
      eci: p.string({ max: 2 }),
      authenticationValue: p.string({ max: 255 }).optional(),
      dsTransactionId: p.string({ max: 255 }).optional(),
      acsTransactionId: p.string({ max: 255 }).optional(),
      status: p.enum(['Y', 'N', 'A', 'U', 'R', 'E']),
    })
    .refine((external) => external.dsTransactionId !== undefined && external.acsTransactionId !== undefined, {
      error: 'needs dsTransactionId and acsTransactionId for 3-D Secure 2',
    })
    .optional(),
});

export const createChargeBody = p.object({
  amount: amount(),
  currency: isoCurrency(),
  type: p.enum(['first_recurring', 'subsequent_recurring', 'merchant_initiated', 'customer_initiated']).optional(),
  description: p.string({ max: 1024 }).optional(),
  customerId: p
    .string({ min: 1, max: 255, description: 'Customer to charge (its default card when no card is given)' })
    .optional(),
  card: cardReferenceSchema.optional(),
  paymentMethod: paymentMethodReferenceSchema.optional(),
  flow: p.object({ returnUrl: returnUrl() }, { description: 'Payment-method charges only' }).optional(),
  captured: p.bool({ description: 'false only authorizes; capture later' }).optional(),
  shipping: shippingSchema.optional(),
  billing: billingSchema.optional(),
  threeDSecure: threeDSecureSchema.optional(),
  merchantAccountId: p.string({ max: 255 }).optional(),
  metadata: p.metadata().optional(),
});

export const updateChargeBody = p.object({
  customerId: p.string({ min: 1, max: 255, description: 'Only for a charge not assigned to any customer' }).optional(),
  description: p.string({ max: 1024 }).nullable().optional(),
  shipping: shippingSchema.nullable().optional(),
  billing: billingSchema.nullable().optional(),
  fraudDetails: p.object({ status: p.enum(['safe', 'suspicious', 'fraudulent', 'in_progress', 'unknown']) }).optional(),
  metadata: p.metadata().optional(),
});

export const refundChargeBody = p.object({
  amount: amount('Amount to refund; default: everything not yet refunded').optional(),
  reason: p.enum(['fraudulent']).optional(),
  metadata: p.metadata().optional(),
});

export const chargeIdParams = z.object({ chargeId: z.string().meta({ description: 'Charge id (char_…)' }) });

export const listChargesQuery = p.listQuery({
  customerId: p.string({ max: 255, description: 'Only charges of this customer' }).optional(),
});

export const refundSchema = z
  .object({
    id: z.string(),
    created: z.number().int(),
    objectType: z.literal('refund'),
    amount: z.number().int(),
    currency: z.string(),
    charge: z.string(),
    reason: z.enum(['fraudulent']).nullable(),
    status: z
      .enum(['pending', 'successful', 'failed'])
      .meta({ description: "pending only while the network's answer is awaited, inside the refund request" }),
    metadata: z.record(z.string(), z.string()),
  })
  .meta({ id: 'Refund' });

export const chargeSchema = z
  .object({
    id: z.string(),
    created: z.number().int(),
    objectType: z.literal('charge'),
    amount: z.number().int(),
    currency: z.string(),
    type: z.string().optional(),
    description: z.string().nullable(),
    card: cardSchema.optional(),
    status: z.enum(['successful', 'pending', 'failed']),
    clientObjectId: z.string().optional().meta({
      description: 'Payment-method charges: client_char_…, lets the payer page follow the charge with the public key',
    }),
    paymentMethod: paymentMethodSchema.optional(),
    flow: z
      .object({
        nextAction: z.enum(['redirect', 'wait', 'none']),
        returnUrl: z.string(),
        redirect: z.object({ redirectUrl: z.string() }).optional(),
      })
      .optional()
      .meta({ description: 'Payment-method charges: what the payer page does next' }),
    customerId: z.string().nullable(),
    subscriptionId: z.string().nullable(),
    captured: z.boolean(),
    refunded: z.boolean().meta({ description: 'true once the whole amount is refunded' }),
    amountRefunded: z.number().int().meta({ description: 'Sum of the successful refunds, minor units' }),
    refunds: z.array(refundSchema),
    disputed: z.boolean(),
    dispute: chargeDisputeSchema.optional(),
    fraudDetails: z.object({ status: z.string(), score: z.number().int() }),
    shipping: shippingObject.nullable(),
    billing: billingObject.nullable(),
    threeDSecureInfo: threeDSecureInfoSchema.nullable(),
    avsCheck: z.object({ result: z.string() }).nullable(),
    merchantAccountId: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    crossSale: z
      .object({
        offerId: z.string(),
        merchantAccountId: z.string(),
        merchantChargeId: z.string().nullable(),
        merchantSubscriptionId: z.string().nullable(),
      })
      .optional()
      .meta({
        description:
          'Only on a charge made by buying one of this account’s cross-sale offers in a checkout: the offer, and the merchant account whose checkout sold it with its main charge or subscription',
      }),
    crossSaleCharges: z
      .array(z.object({ accountId: z.string(), chargeId: z.string(), offerId: z.string() }))
      .optional()
      .meta({
        description:
          'Only on the main charge of a checkout after which cross-sale offers were bought: each charge made for one, on the account of the offer’s owner',
      }),
    failureCode: z.string().optional(),
    failureMessage: z.string().optional(),
    failureIssuerDeclineCode: z.string().nullable().optional(),
  })
  .meta({ id: 'Charge' });
