import { z } from 'zod';
import { p } from '../../../packages/http/params.ts';

export const fraudWarningIdParams = z.object({
  fraudWarningId: z.string().meta({ description: 'Fraud warning id (fw_…)' }),
});

export const listFraudWarningsQuery = p.listQuery({
  chargeId: p.string({ min: 1, max: 255, description: 'Only the warnings of this charge' }).optional(),
  actionable: p.bool({ description: 'Only warnings that are (or are not) actionable' }).optional(),
});

export const fraudWarningSchema = z
  .object({
    id: z.string(),
    created: z.number().int(),
    objectType: z.literal('fraud_warning'),
    charge: z.string().meta({ description: 'Id of the charge warned about' }),
    actionable: z
      .boolean()
      .meta({ description: 'Whether the charge could still be refunded when the warning arrived' }),
  })
  .meta({ id: 'FraudWarning' });
