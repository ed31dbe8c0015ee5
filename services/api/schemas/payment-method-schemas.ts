import { z } from 'zod';
import { paymentMethodTypes } from '../../../packages/domain/payment-method/payment-method-events.ts';
import { p } from '../../../packages/http/params.ts';
import { billingObject, billingSchema } from './address-schemas.ts';

const paymentMethodType = () =>
  p.enum(paymentMethodTypes, { description: 'Kind of payment method (docs/payments.md lists what each one is)' });

export const createPaymentMethodBody = p.object({
  type: paymentMethodType(),
  billing: billingSchema.optional(),
  customerId: p.string({ min: 1, max: 255, description: 'Customer the payment method belongs to' }).optional(),
  metadata: p.metadata().optional(),
});

/** `paymentMethod` of a charge: the id of a payment method of the charge's customer, or the details of a new one. */
export const paymentMethodReferenceSchema = z
  .union([
    p.id('pm', { description: 'A payment method of the customer in customerId' }),
    p.object({
      type: paymentMethodType(),
      billing: billingSchema.optional(),
      customerId: p.string({ min: 1, max: 255 }).optional(),
      metadata: p.metadata().optional(),
    }),
  ])
  .meta({ description: 'Payment method id (pm_…) or the details of a new payment method' });

export const listPaymentMethodsQuery = p.listQuery({
  customerId: p.string({ max: 255, description: 'Only payment methods of this customer' }).optional(),
  deleted: p.bool({ description: 'true lists only deleted payment methods; default false' }).optional(),
});

export const paymentMethodIdParams = z.object({
  paymentMethodId: z.string().meta({ description: 'Payment method id (pm_…)' }),
});

export const paymentMethodSchema = z
  .object({
    id: z.string(),
    created: z.number().int(),
    objectType: z.literal('paymentMethod'),
    clientObjectId: z.string().meta({ description: 'client_pm_…: what a page may know of the payment method' }),
    type: z.enum(paymentMethodTypes),
    billing: billingObject.nullable(),
    customerId: z.string().nullable(),
    status: z.enum(['chargeable', 'canceled']).meta({
      description: 'chargeable: usable for charges; canceled: deleted, no longer usable',
    }),
    metadata: z.record(z.string(), z.string()),
    deleted: z.literal(true).optional().meta({ description: 'Present only on a deleted payment method' }),
  })
  .meta({ id: 'PaymentMethod' });
