import { disputesProjection } from '../disputes-projection.ts';
import type { ReadSide } from '../read-side.ts';

/** Disputes: their public events are the charge's (`charge-read-side.ts`). */
export const disputeReadSide = { projections: [disputesProjection], publicEvents: null } satisfies ReadSide;
