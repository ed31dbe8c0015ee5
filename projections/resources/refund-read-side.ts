import { hostedObjects, type HostedReadSide } from '../read-side.ts';
import { refundsCollection, refundsProjection } from '../refunds-projection.ts';

/** Refunds (in their charge's stream): their public events are the charge's (`charge-read-side.ts`). */
export const refundReadSide = {
  projections: [refundsProjection],
  publicEvents: null,
  hosted: hostedObjects(refundsCollection, (refund) => refund.charge),
} satisfies HostedReadSide;
