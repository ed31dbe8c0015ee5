import type { Billing, ChargeType, CrossSaleOrigin, FraudStatus, Shipping } from '../domain/charge/charge-events.ts';
import type { Metadata } from '../domain/metadata.ts';
import type { ThreeDSecureRequest } from '../network/card-network.ts';
import type { CardReference } from './card-sources.ts';

export interface CreateChargeInput {
  amount: number;
  currency: string;
  type?: ChargeType;
  description?: string;
  customerId?: string;
  card?: CardReference;
  captured?: boolean;
  shipping?: Shipping;
  billing?: Billing;
  threeDSecure?: Partial<ThreeDSecureRequest>;
  merchantAccountId?: string;
  metadata?: Metadata;
  /** Set by subscriptions for the charges they make. */
  subscriptionId?: string;
  /** Set by subscriptions: the id recorded before charging, so that a retried charge is recognised. */
  chargeId?: string;
  /** Set for a charge made by buying a cross-sale offer: where it came from. */
  crossSale?: CrossSaleOrigin;
  /**
   * Set by subscriptions for their first payment made right after the card was saved from this
   * token, in the same request: the saved card then carries the token's 3-D Secure verification.
   */
  justSavedFromToken?: string;
}

export interface UpdateChargeInput {
  customerId?: string;
  description?: string | null;
  shipping?: Shipping | null;
  billing?: Billing | null;
  fraudDetails?: { status: FraudStatus };
  metadata?: Metadata;
}
