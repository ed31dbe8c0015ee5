import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError, missingParameter } from '../errors.ts';
import type {
  CrossSaleOfferEvent,
  CrossSaleOfferUpdated,
  OfferCharge,
  OfferSubscription,
  OfferTerms,
} from './cross-sale-offer-events.ts';
import {
  evolveCrossSaleOffer,
  initialCrossSaleOfferState,
  type CrossSaleOfferState,
} from './cross-sale-offer-state.ts';

/**
 * Changes of an update: any term; `charge` or `subscription` may name only the parts that change.
 * Giving the other one than the offer has switches the offer to it (whole, but for its defaults).
 */
export type OfferChanges = Partial<Omit<OfferTerms, 'charge' | 'subscription'>> & {
  charge?: Partial<OfferCharge>;
  subscription?: Partial<OfferSubscription>;
};

export type CrossSaleOfferCommand =
  | { type: 'CreateCrossSaleOffer'; offerId: string; terms: OfferTerms }
  | { type: 'UpdateCrossSaleOffer'; offerId: string; changes: OfferChanges }
  | { type: 'DeleteCrossSaleOffer'; offerId: string };

export const crossSaleOfferDecider: Decider<CrossSaleOfferCommand, CrossSaleOfferEvent, CrossSaleOfferState> = {
  initialState: initialCrossSaleOfferState,
  evolve: evolveCrossSaleOffer,
  decide(command, state) {
    switch (command.type) {
      case 'CreateCrossSaleOffer':
        if (state.status !== 'none')
          throw new InvalidRequestError(`Cross-sale offer '${command.offerId}' already exists`);
        requireOneProduct(command.terms);
        requireImageForTemplate(command.terms);
        return [{ type: 'CrossSaleOfferCreated', data: { offerId: command.offerId, ...command.terms } }];
      case 'UpdateCrossSaleOffer': {
        const offer = requireActiveOffer(state, command.offerId);
        const { charge, subscription, ...rest } = command.changes;
        if (charge !== undefined && subscription !== undefined) throw bothProducts();
        const next: OfferTerms = {
          ...offer,
          ...definedOnly(rest),
          ...(charge !== undefined ? { charge: changedCharge(offer.charge, charge), subscription: null } : {}),
          ...(subscription !== undefined
            ? { subscription: changedSubscription(offer.subscription, subscription), charge: null }
            : {}),
        };
        requireOneProduct(next);
        requireImageForTemplate(next);
        const changes: CrossSaleOfferUpdated['data'] = { offerId: command.offerId };
        for (const field of termFields) {
          if (JSON.stringify(next[field]) !== JSON.stringify(offer[field]))
            (changes as Record<string, unknown>)[field] = next[field];
        }
        // An update that changes nothing records nothing (and emits no CROSS_SALE_OFFER_UPDATED).
        return Object.keys(changes).length > 1 ? [{ type: 'CrossSaleOfferUpdated', data: changes }] : [];
      }
      case 'DeleteCrossSaleOffer':
        requireActiveOffer(state, command.offerId);
        return [{ type: 'CrossSaleOfferDeleted', data: { offerId: command.offerId } }];
    }
  },
};

const termFields: readonly (keyof OfferTerms)[] = [
  'charge',
  'subscription',
  'template',
  'title',
  'description',
  'imageId',
  'companyName',
  'companyLocation',
  'termsAndConditionsUrl',
  'visibleForAllPartners',
  'partnerIds',
];

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

export const bothProducts = (): InvalidRequestError =>
  new InvalidRequestError(
    'Invalid request: an offer defines either a charge or a subscription, not both',
    'subscription',
  );

/** Spec: an offer "defines either a charge or a subscription". */
export function requireOneProduct(terms: { charge: object | null; subscription: object | null }): void {
  if (terms.charge !== null && terms.subscription !== null) throw bothProducts();
  if (terms.charge === null && terms.subscription === null)
    throw new InvalidRequestError(
      'Invalid request: an offer defines either a charge or a subscription: give charge or subscription',
      'charge',
    );
}

/** The charge after an update: parts not given stay; a charge offer made from a subscription one needs it whole. */
function changedCharge(current: OfferCharge | null, changes: Partial<OfferCharge>): OfferCharge {
  const next = { capture: true, ...current, ...definedOnly(changes) };
  if (next.amount === undefined) throw missingParameter('charge[amount]');
  if (next.currency === undefined) throw missingParameter('charge[currency]');
  return { amount: next.amount, currency: next.currency, capture: next.capture };
}

/** The subscription after an update: as the charge, `planId` needed when it is new. */
function changedSubscription(
  current: OfferSubscription | null,
  changes: Partial<OfferSubscription>,
): OfferSubscription {
  const next = { captureCharges: true, ...current, ...definedOnly(changes) };
  if (next.planId === undefined) throw missingParameter('subscription[planId]');
  return { planId: next.planId, captureCharges: next.captureCharges };
}

function requireImageForTemplate(terms: OfferTerms): void {
  if (terms.template === 'image_and_text' && terms.imageId === null) {
    throw missingParameter('imageData', 'The template image_and_text needs an image.');
  }
}

function requireActiveOffer(
  state: CrossSaleOfferState,
  offerId: string,
): Exclude<CrossSaleOfferState, { status: 'none' }> {
  if (state.status === 'none') throw new NotFoundError('Cross-sale offer', offerId);
  if (state.status === 'deleted') throw new InvalidRequestError(`Cross-sale offer '${offerId}' has been deleted`);
  return state;
}
