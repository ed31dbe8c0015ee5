import { disputesCollection, disputesProjection } from '../disputes-projection.ts';
import { hostedObjects, type HostedReadSide } from '../read-side.ts';

/** Disputes (in their charge's stream): their public events are the charge's (`charge-read-side.ts`). */
export const disputeReadSide = {
  projections: [disputesProjection],
  publicEvents: null,
  hosted: hostedObjects(disputesCollection, (dispute) => dispute.charge),
} satisfies HostedReadSide;
