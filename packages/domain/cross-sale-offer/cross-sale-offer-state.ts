import type { CrossSaleOfferEvent, OfferTerms } from './cross-sale-offer-events.ts';

export type CrossSaleOfferState = { status: 'none' } | ({ status: 'active' | 'deleted'; offerId: string } & OfferTerms);

export const initialCrossSaleOfferState = (): CrossSaleOfferState => ({ status: 'none' });

export function evolveCrossSaleOffer(state: CrossSaleOfferState, event: CrossSaleOfferEvent): CrossSaleOfferState {
  if (event.type === 'CrossSaleOfferCreated') return { status: 'active', ...event.data };
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'CrossSaleOfferUpdated': {
      const { offerId: _id, ...changes } = event.data;
      return { ...state, ...changes };
    }
    case 'CrossSaleOfferDeleted':
      return { ...state, status: 'deleted' };
  }
}
