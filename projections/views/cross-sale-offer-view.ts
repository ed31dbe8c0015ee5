import type {
  CrossSaleOfferEvent,
  OfferTerms,
} from '../../packages/domain/cross-sale-offer/cross-sale-offer-events.ts';
import { occurredAtSeconds, tenantFields, type TenantScope } from '../event-time.ts';
import { objectView, fromEventAlone } from './object-view.ts';

/** A cross-sale offer as GET /cross-sale-offers/{id} renders it (spec: Cross-sale offer). */
export interface CrossSaleOfferObject extends Omit<OfferTerms, 'imageId'> {
  id: string;
  created: number;
  objectType: 'crossSaleOffer';
  /** The account that made the offer (the caller's own, or a partner's). */
  accountId: string;
  /** Where GET serves the image, or null without one. */
  imageUrl: string | null;
  /** `partnerIds` by the name the public client libraries read. */
  visibleForPartnerIds: string[];
  deleted?: true;
}

export interface CrossSaleOfferDoc extends CrossSaleOfferObject, TenantScope {
  _deleted: boolean;
}

/** Where GET serves an offer image (unauthenticated; the id is unguessable). */
export const offerImageUrl = (imageId: string | null): string | null =>
  imageId === null ? null : `/cross-sale-offers/images/${imageId}.png`;

/** Offer fields as rendered: the image id becomes its address. */
function rendered(terms: Partial<OfferTerms>): Partial<CrossSaleOfferObject> {
  const { imageId, ...rest } = terms;
  return {
    ...rest,
    ...(imageId === undefined ? {} : { imageUrl: offerImageUrl(imageId) }),
    ...(rest.partnerIds === undefined ? {} : { visibleForPartnerIds: rest.partnerIds }),
  };
}

export const crossSaleOfferView = objectView<CrossSaleOfferDoc, CrossSaleOfferEvent>({
  objectId: (event) => event.data.offerId,
  on: {
    CrossSaleOfferCreated: fromEventAlone((event) => {
      const { offerId, ...terms } = event.data;
      return {
        id: offerId,
        created: occurredAtSeconds(event),
        objectType: 'crossSaleOffer',
        accountId: event.metadata.accountId,
        charge: terms.charge,
        subscription: terms.subscription,
        template: terms.template,
        title: terms.title,
        description: terms.description,
        imageUrl: offerImageUrl(terms.imageId),
        companyName: terms.companyName,
        companyLocation: terms.companyLocation,
        termsAndConditionsUrl: terms.termsAndConditionsUrl,
        visibleForAllPartners: terms.visibleForAllPartners,
        partnerIds: terms.partnerIds,
        visibleForPartnerIds: terms.partnerIds,
        ...tenantFields(event),
        _deleted: false,
      };
    }),
    CrossSaleOfferUpdated: (current, event) => {
      if (!current) return current;
      const { offerId: _id, ...changes } = event.data;
      return { ...current, ...rendered(changes) };
    },
    // Soft delete: still readable, with deleted: true.
    CrossSaleOfferDeleted: (current) => current && { ...current, deleted: true, _deleted: true },
  },
});
