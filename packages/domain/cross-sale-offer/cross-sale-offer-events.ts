import { resourceIdentity, streamName } from '../resource-identity.ts';
import type { DomainEvent } from '../decider.ts';
import { everyType } from '../event-types.ts';

export const crossSaleOfferResource = resourceIdentity({ name: 'crossSaleOffer', idPrefix: 'cso', stream: 'own' });

/** Stream of one cross-sale offer: `crossSaleOffer-<offerId>`. */
export const crossSaleOfferStream = (offerId: string): string => streamName(crossSaleOfferResource, offerId);

export type OfferTemplate = 'image_and_text' | 'text_only';

/** The charge created when the offer is bought. */
export interface OfferCharge {
  amount: number;
  currency: string;
  capture: boolean;
}

/** The subscription created when the offer is bought: to a plan of the offer's account. */
export interface OfferSubscription {
  planId: string;
  /** Whether the subscription's charges are captured at once. */
  captureCharges: boolean;
}

/**
 * Everything an offer says (spec: Cross-sale offer). An offer defines either a charge or a
 * subscription: exactly one of the two is set. The image itself is not in events: only its id.
 */
export interface OfferTerms {
  charge: OfferCharge | null;
  subscription: OfferSubscription | null;
  template: OfferTemplate;
  title: string;
  description: string | null;
  /** `img_…` in the operational image store; null when the offer has no image. */
  imageId: string | null;
  companyName: string | null;
  /** Two-letter country code, upper case. */
  companyLocation: string | null;
  termsAndConditionsUrl: string | null;
  visibleForAllPartners: boolean;
  /** Accounts (`acct_…`) the offer is visible to; no effect when visibleForAllPartners. */
  partnerIds: string[];
}

export type CrossSaleOfferCreated = DomainEvent<'CrossSaleOfferCreated', { offerId: string } & OfferTerms>;

/**
 * Only the fields that changed are present (`charge` or `subscription` whole, when any part of it
 * changed; the other one `null` when the offer switched from it).
 */
export type CrossSaleOfferUpdated = DomainEvent<'CrossSaleOfferUpdated', { offerId: string } & Partial<OfferTerms>>;

export type CrossSaleOfferDeleted = DomainEvent<'CrossSaleOfferDeleted', { offerId: string }>;

export type CrossSaleOfferEvent = CrossSaleOfferCreated | CrossSaleOfferUpdated | CrossSaleOfferDeleted;

export const crossSaleOfferEventTypes = everyType<CrossSaleOfferEvent>()([
  'CrossSaleOfferCreated',
  'CrossSaleOfferUpdated',
  'CrossSaleOfferDeleted',
]);
