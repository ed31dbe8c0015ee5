import { threeDSecureInfoSchema } from './three-d-secure-schemas.ts';
import { z } from 'zod';
import { p } from '../../../packages/http/params.ts';
import { cardReferenceSchema, cardSchema } from './card-schemas.ts';
import { amount, isoCurrency } from './money-schemas.ts';

export const createCreditBody = p.object({
  amount: amount('Amount to send to the card, in minor units of the currency'),
  currency: isoCurrency(),
  card: cardReferenceSchema.optional(),
  description: p.string({ max: 1024 }).optional(),
  customerId: p
    .string({
      min: 1,
      max: 255,
      description: 'Customer the credit relates to (its default card when no card is given)',
    })
    .optional(),
  metadata: p.metadata().optional(),
});

/** The spec leaves credit update parameters open: only description and metadata change. */
export const updateCreditBody = p.object({
  description: p.string({ max: 1024 }).nullable().optional(),
  metadata: p.metadata().optional(),
});

export const creditIdParams = z.object({ creditId: z.string().meta({ description: 'Credit id (cr_…)' }) });

export const listCreditsQuery = p.listQuery({
  customerId: p.string({ max: 255, description: 'Only credits of this customer' }).optional(),
});

export const creditSchema = z
  .object({
    id: z.string(),
    created: z.number().int(),
    objectType: z.literal('credit'),
    amount: z.number().int(),
    currency: z.string(),
    description: z.string().nullable(),
    card: cardSchema,
    customerId: z.string().nullable(),
    status: z.enum(['pending', 'successful', 'failed']),
    metadata: z.record(z.string(), z.string()),
    failureCode: z.string().optional(),
    failureMessage: z.string().optional(),
    failureIssuerDeclineCode: z.string().nullable().optional(),
    threeDSecureInfo: threeDSecureInfoSchema
      .nullable()
      .meta({ description: "The 3-D Secure result of the card's token, when verified for this amount; else null" }),
  })
  .meta({ id: 'Credit' });
