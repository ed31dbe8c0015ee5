import type { ReadSide } from '../read-side.ts';
import { webhookDeliveriesProjection } from '../webhook-deliveries-projection.ts';

/** Webhook deliveries: one per public event and subscribed endpoint (`docs/webhooks.md`). */
export const webhookDeliveryReadSide = {
  projections: (everyPublicObject) => [webhookDeliveriesProjection(everyPublicObject)],
  publicEvents: null,
} satisfies ReadSide;
