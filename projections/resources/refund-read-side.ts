import type { ReadSide } from '../read-side.ts';
import { refundsProjection } from '../refunds-projection.ts';

/** Refunds: their public events are the charge's (`charge-read-side.ts`). */
export const refundReadSide = { projections: [refundsProjection], publicEvents: null } satisfies ReadSide;
