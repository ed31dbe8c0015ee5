import {
  crossSaleOfferEventTypes,
  type CrossSaleOfferEvent,
  type OfferTerms,
} from '../../packages/domain/cross-sale-offer/cross-sale-offer-events.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import type { ObjectView } from './object-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';

export interface CrossSaleOfferDoc extends Document {
  objectType: 'crossSaleOffer';
  deleted?: true;
  _accountId: string;
  _mode: Mode;
  _deleted: boolean;
}

/** Where GET serves an offer image (unauthenticated; the id is unguessable). */
export const offerImageUrl = (imageId: string | null): string | null =>
  imageId === null ? null : `/cross-sale-offers/images/${imageId}.png`;

/** Offer fields as rendered: the image id becomes its address. */
function rendered(terms: Partial<OfferTerms>): Record<string, unknown> {
  const { imageId, ...rest } = terms;
  return imageId === undefined ? rest : { ...rest, imageUrl: offerImageUrl(imageId) };
}

/** A cross-sale offer as GET /cross-sale-offers/{id} renders it (spec: Cross-sale offer). */
export const crossSaleOfferView: ObjectView<CrossSaleOfferDoc> = {
  eventTypes: new Set(crossSaleOfferEventTypes),
  objectId: (event) => (event.data as { offerId?: string }).offerId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & CrossSaleOfferEvent;
    switch (event.type) {
      case 'CrossSaleOfferCreated': {
        const { offerId, ...terms } = event.data;
        return {
          id: offerId,
          created: occurredAtSeconds(recorded),
          objectType: 'crossSaleOffer',
          charge: terms.charge,
          template: terms.template,
          title: terms.title,
          description: terms.description,
          imageUrl: offerImageUrl(terms.imageId),
          companyName: terms.companyName,
          companyLocation: terms.companyLocation,
          termsAndConditionsUrl: terms.termsAndConditionsUrl,
          visibleForAllPartners: terms.visibleForAllPartners,
          partnerIds: terms.partnerIds,
          ...tenantFields(recorded),
          _deleted: false,
        };
      }
      case 'CrossSaleOfferUpdated': {
        if (!current) return current;
        const { offerId: _id, ...changes } = event.data;
        return { ...current, ...rendered(changes) };
      }
      case 'CrossSaleOfferDeleted':
        // Soft delete: still readable, with deleted: true.
        return current ? { ...current, deleted: true, _deleted: true } : current;
      default:
        return current;
    }
  },
};
