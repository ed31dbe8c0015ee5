import { z } from 'zod';
import { disputeEvidenceFields } from '../../../packages/domain/charge/dispute-events.ts';
import { p } from '../../../packages/http/params.ts';
import { chargeDisputeShape } from './charge-dispute-schema.ts';
import { chargeSchema } from './charge-schemas.ts';

/** Per field; the whole body is bounded by MAX_BODY_BYTES. */
const EVIDENCE_TEXT_MAX = 20_000;

const evidenceBody = p
  .object(
    Object.fromEntries(
      disputeEvidenceFields.map((field) => [field, p.string({ max: EVIDENCE_TEXT_MAX }).optional()]),
    ) as Record<(typeof disputeEvidenceFields)[number], z.ZodOptional<z.ZodString>>,
    {
      description:
        'Evidence contesting the dispute; free text, or the id of a file uploaded with POST /files (file_…, of this account and mode). Submitted once.',
    },
  )
  .refine((evidence) => Object.values(evidence).some((value) => value !== undefined), {
    error: 'must have at least one field',
  });

export const updateDisputeBody = p.object({ evidence: evidenceBody.optional() });

export const disputeIdParams = z.object({ disputeId: z.string().meta({ description: 'Dispute id (dp_…)' }) });

export const listDisputesQuery = p.listQuery({});

export const disputeSchema = z
  .object({ ...chargeDisputeShape, charge: chargeSchema.meta({ description: 'The disputed charge' }) })
  .meta({ id: 'Dispute' });
