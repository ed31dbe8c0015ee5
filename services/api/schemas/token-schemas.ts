import { z } from 'zod';
import { p } from '../../../packages/http/params.ts';
import { cardDetailsShape, cardFaceShape, cardSchema } from './card-schemas.ts';
import { threeDSecureInfoSchema } from './three-d-secure-schemas.ts';

export const createTokenBody = p.object(cardDetailsShape);

export const tokenIdParams = z.object({ tokenId: z.string().meta({ description: 'Token id (tok_…)' }) });

export const tokenSchema = z
  .object({
    id: z.string(),
    created: z.number().int(),
    objectType: z.literal('token'),
    ...cardFaceShape,
    brand: z.string(),
    type: z.string(),
    country: z.string().nullable(),
    used: z.boolean(),
    card: cardSchema.optional(),
    threeDSecureInfo: threeDSecureInfoSchema
      .optional()
      .meta({ description: 'Present once the card was verified with 3-D Secure for an amount' }),
  })
  .meta({ id: 'Token' });
