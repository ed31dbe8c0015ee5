import { z } from 'zod';
import { p } from '../../../packages/http/params.ts';
import { amount } from './money-schemas.ts';

export const createRefundBody = p.object({
  chargeId: p.string({ min: 1, max: 255, description: 'Charge to refund' }),
  amount: amount('Amount to refund; default: everything not yet refunded').optional(),
  reason: p.enum(['fraudulent']).optional(),
  metadata: p.metadata().optional(),
});

export const updateRefundBody = p.object({ metadata: p.metadata().optional() });

export const refundIdParams = z.object({ refundId: z.string().meta({ description: 'Refund id (re_…)' }) });

export const listRefundsQuery = p.listQuery({
  chargeId: p.string({ min: 1, max: 255, description: 'The charge whose refunds to list' }),
});
