import { paymentMethodsProjection } from '../payment-methods-projection.ts';
import type { ReadSide } from '../read-side.ts';

/**
 * Payment methods. No public events: the spec's catalog has no type for them; a payment method
 * shows in the events of the charges made with it (`paymentMethod` of the charge).
 */
export const paymentMethodReadSide = {
  projections: [paymentMethodsProjection],
  publicEvents: null,
} satisfies ReadSide;
