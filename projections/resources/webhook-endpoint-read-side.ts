import type { ReadSide } from '../read-side.ts';
import { webhookEndpointsProjection } from '../webhook-endpoints-projection.ts';

/** Webhook endpoints (no public events). */
export const webhookEndpointReadSide = {
  projections: [webhookEndpointsProjection],
  publicEvents: null,
} satisfies ReadSide;
