import { z } from 'zod';
import { amount, isoCurrency } from './money-schemas.ts';
import { p } from '../../../packages/http/params.ts';

/** `threeDSecureInfo` of tokens, charges and credits (spec: Charge › threeDSecureInfo). */
export const threeDSecureInfoSchema = z
  .object({
    amount: z.number().int(),
    currency: z.string(),
    enrolled: z.boolean(),
    liabilityShift: z.enum(['pending', 'successful', 'failed', 'not_possible']),
    authenticationFlow: z.enum(['frictionless', 'challenge']).nullable(),
    version: z.string().nullable().optional(),
  })
  .meta({ id: 'ThreeDSecureInfo' });

/** POST /tokens/{id}/three-d-secure: the amount the cardholder authenticates. */
export const verifyThreeDSecureBody = p.object({
  amount: amount('Amount of the payment to authenticate, minor units'),
  currency: isoCurrency(),
});
