import type { StripeListed } from './stripe-api.ts';
import type { StripeDeclineReason } from './stripe-declines.ts';

/** The fields of Stripe's objects that the adapter reads (API version `STRIPE_API_VERSION`). */

/** Where the adapter keeps this service's reference in an object's metadata. */
export const REFERENCE_KEY = 'reference';

export type StripeMetadata = Record<string, string> | null;

export interface StripePaymentMethod {
  id: string;
  /** The card's BIN data as Stripe knows it (`brand` in Stripe's words, e.g. `visa`; `funding`). */
  card?: { brand?: string; funding?: string; country?: string | null } | null;
}

export interface StripeCustomer {
  id: string;
}

export interface StripeCharge {
  id: string;
  amount_refunded: number;
  payment_intent: string | null;
}

export type StripePaymentIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

export interface StripePaymentIntent extends StripeListed {
  amount: number;
  currency: string;
  status: StripePaymentIntentStatus;
  metadata: StripeMetadata;
  last_payment_error: StripeDeclineReason | null;
  /** An id, or the charge itself when expanded. */
  latest_charge: string | StripeCharge | null;
}

export interface StripeRefund extends StripeListed {
  amount: number;
  currency: string;
  status: 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';
  metadata: StripeMetadata;
  payment_intent: string | null;
  charge: string | null;
}

export function referenceOf(object: { metadata: StripeMetadata }): string | null {
  return object.metadata?.[REFERENCE_KEY] ?? null;
}
