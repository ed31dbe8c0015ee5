import { z } from 'zod';
import { disputeEvidenceFields } from '../../../packages/domain/charge/dispute-events.ts';

const disputeStatuses = [
  'RETRIEVAL_REQUEST_NEW',
  'RETRIEVAL_REQUEST_REPRESENTED',
  'CHARGEBACK_NEW',
  'CHARGEBACK_REPRESENTED_SUCCESSFULLY',
  'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY',
] as const;
const disputeReasons = [
  'FRAUDULENT',
  'UNRECOGNIZED',
  'DUPLICATE',
  'SUBSCRIPTION_CANCELED',
  'PRODUCT_NOT_RECEIVED',
  'PRODUCT_UNACCEPTABLE',
  'CREDIT_NOT_PROCESSED',
  'GENERAL',
] as const;

/** Submitted evidence as rendered: the fields that were given. */
export const disputeEvidenceSchema = z
  .object(Object.fromEntries(disputeEvidenceFields.map((field) => [field, z.string().optional()])))
  .meta({ id: 'DisputeEvidence' });

/** The dispute fields, as the charge embeds them (without the charge itself). */
export const chargeDisputeShape = {
  id: z.string(),
  created: z.number().int(),
  updated: z.number().int(),
  objectType: z.literal('dispute'),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(disputeStatuses),
  reason: z.enum(disputeReasons),
  acceptedAsLost: z.boolean(),
  evidence: disputeEvidenceSchema.nullable().meta({ description: 'The evidence submitted, or null before any' }),
  evidenceDetails: z.object({ hasEvidence: z.boolean(), submissionCount: z.number().int() }),
};

export const chargeDisputeSchema = z
  .object(chargeDisputeShape)
  .meta({ id: 'ChargeDispute', description: 'A dispute as its charge embeds it' });
