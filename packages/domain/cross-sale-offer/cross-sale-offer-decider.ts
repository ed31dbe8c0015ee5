import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError, missingParameter } from '../errors.ts';
import type { CrossSaleOfferEvent, CrossSaleOfferUpdated, OfferCharge, OfferTerms } from './cross-sale-offer-events.ts';
import {
  evolveCrossSaleOffer,
  initialCrossSaleOfferState,
  type CrossSaleOfferState,
} from './cross-sale-offer-state.ts';

/** Changes of an update: any term; `charge` may name only the parts that change. */
export type OfferChanges = Partial<Omit<OfferTerms, 'charge'>> & { charge?: Partial<OfferCharge> };

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
        requireImageForTemplate(command.terms);
        return [{ type: 'CrossSaleOfferCreated', data: { offerId: command.offerId, ...command.terms } }];
      case 'UpdateCrossSaleOffer': {
        const offer = requireActiveOffer(state, command.offerId);
        const { charge, ...rest } = command.changes;
        const next: OfferTerms = {
          ...offer,
          ...definedOnly(rest),
          charge: { ...offer.charge, ...definedOnly(charge ?? {}) },
        };
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
