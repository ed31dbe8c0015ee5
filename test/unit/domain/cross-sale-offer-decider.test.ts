import { crossSaleOfferDecider } from '../../../packages/domain/cross-sale-offer/cross-sale-offer-decider.ts';
import type {
  CrossSaleOfferEvent,
  OfferTerms,
} from '../../../packages/domain/cross-sale-offer/cross-sale-offer-events.ts';
import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(crossSaleOfferDecider);
const terms: OfferTerms = {
  charge: { amount: 500, currency: 'EUR', capture: true },
  subscription: null,
  template: 'text_only',
  title: 'Extended warranty',
  description: null,
  imageId: null,
  companyName: 'Warranty Co',
  companyLocation: 'DE',
  termsAndConditionsUrl: null,
  visibleForAllPartners: false,
  partnerIds: ['acct_2'],
};
const created: CrossSaleOfferEvent = { type: 'CrossSaleOfferCreated', data: { offerId: 'cso_1', ...terms } };
const deleted: CrossSaleOfferEvent = { type: 'CrossSaleOfferDeleted', data: { offerId: 'cso_1' } };
const imageRequired = /^imageData: Must not be empty\. The template image_and_text needs an image\.$/;

describe('cross-sale offer decider', () => {
  describe('CreateCrossSaleOffer', () => {
    it('records the terms of a new offer, once', () => {
      spec([]).when({ type: 'CreateCrossSaleOffer', offerId: 'cso_1', terms }).then([created]);
      spec([created])
        .when({ type: 'CreateCrossSaleOffer', offerId: 'cso_1', terms })
        .thenThrows(InvalidRequestError, /already exists/);
    });

    it('requires an image for the image_and_text template', () => {
      spec([])
        .when({ type: 'CreateCrossSaleOffer', offerId: 'cso_1', terms: { ...terms, template: 'image_and_text' } })
        .thenThrows(InvalidRequestError, imageRequired);
      const withImage = { ...terms, template: 'image_and_text', imageId: 'img_1' } as const;
      spec([])
        .when({ type: 'CreateCrossSaleOffer', offerId: 'cso_1', terms: withImage })
        .then([{ type: 'CrossSaleOfferCreated', data: { offerId: 'cso_1', ...withImage } }]);
    });

    it('records a subscription offer; refuses one with both a charge and a subscription, or neither', () => {
      const subscribing = { ...terms, charge: null, subscription: { planId: 'plan_1', captureCharges: true } };
      spec([])
        .when({ type: 'CreateCrossSaleOffer', offerId: 'cso_1', terms: subscribing })
        .then([{ type: 'CrossSaleOfferCreated', data: { offerId: 'cso_1', ...subscribing } }]);
      spec([])
        .when({ type: 'CreateCrossSaleOffer', offerId: 'cso_1', terms: { ...subscribing, charge: terms.charge } })
        .thenThrows(InvalidRequestError, /either a charge or a subscription, not both/);
      spec([])
        .when({ type: 'CreateCrossSaleOffer', offerId: 'cso_1', terms: { ...terms, charge: null } })
        .thenThrows(InvalidRequestError, /either a charge or a subscription/);
    });
  });

  describe('UpdateCrossSaleOffer', () => {
    it('switches a charge offer to a subscription and back, each given whole but for its defaults', () => {
      const subscribing: CrossSaleOfferEvent = {
        type: 'CrossSaleOfferUpdated',
        data: { offerId: 'cso_1', charge: null, subscription: { planId: 'plan_1', captureCharges: true } },
      };
      spec([created])
        .when({ type: 'UpdateCrossSaleOffer', offerId: 'cso_1', changes: { subscription: { planId: 'plan_1' } } })
        .then([subscribing]);
      spec([created])
        .when({ type: 'UpdateCrossSaleOffer', offerId: 'cso_1', changes: { subscription: { captureCharges: false } } })
        .thenThrows(InvalidRequestError, /^subscription\[planId\]: Must not be empty/);
      spec([created, subscribing])
        .when({ type: 'UpdateCrossSaleOffer', offerId: 'cso_1', changes: { subscription: { captureCharges: false } } })
        .then([
          {
            type: 'CrossSaleOfferUpdated',
            data: { offerId: 'cso_1', subscription: { planId: 'plan_1', captureCharges: false } },
          },
        ]);
      spec([created, subscribing])
        .when({ type: 'UpdateCrossSaleOffer', offerId: 'cso_1', changes: { charge: { amount: 900 } } })
        .thenThrows(InvalidRequestError, /^charge\[currency\]: Must not be empty/);
      spec([created, subscribing])
        .when({ type: 'UpdateCrossSaleOffer', offerId: 'cso_1', changes: { charge: { amount: 900, currency: 'EUR' } } })
        .then([
          {
            type: 'CrossSaleOfferUpdated',
            data: { offerId: 'cso_1', charge: { amount: 900, currency: 'EUR', capture: true }, subscription: null },
          },
        ]);
      spec([created])
        .when({
          type: 'UpdateCrossSaleOffer',
          offerId: 'cso_1',
          changes: { charge: { amount: 900 }, subscription: { planId: 'plan_1' } },
        })
        .thenThrows(InvalidRequestError, /not both/);
    });

    it('records only the terms that change; a changed part of the charge records the whole charge', () => {
      spec([created])
        .when({
          type: 'UpdateCrossSaleOffer',
          offerId: 'cso_1',
          changes: { charge: { amount: 700 }, title: 'Extended warranty', partnerIds: ['acct_2', 'acct_3'] },
        })
        .then([
          {
            type: 'CrossSaleOfferUpdated',
            data: {
              offerId: 'cso_1',
              charge: { amount: 700, currency: 'EUR', capture: true },
              partnerIds: ['acct_2', 'acct_3'],
            },
          },
        ]);
    });

    it('records nothing when nothing changes (absent and undefined fields are no change)', () => {
      spec([created]).when({ type: 'UpdateCrossSaleOffer', offerId: 'cso_1', changes: {} }).then([]);
      spec([created])
        .when({
          type: 'UpdateCrossSaleOffer',
          offerId: 'cso_1',
          changes: { charge: { currency: 'EUR', amount: undefined }, description: undefined, companyLocation: 'DE' },
        })
        .then([]);
    });

    it('clears a term set to null', () => {
      spec([created])
        .when({ type: 'UpdateCrossSaleOffer', offerId: 'cso_1', changes: { companyName: null } })
        .then([{ type: 'CrossSaleOfferUpdated', data: { offerId: 'cso_1', companyName: null } }]);
    });

    it('requires an image when switching to the image_and_text template', () => {
      spec([created])
        .when({ type: 'UpdateCrossSaleOffer', offerId: 'cso_1', changes: { template: 'image_and_text' } })
        .thenThrows(InvalidRequestError, imageRequired);
      spec([created])
        .when({
          type: 'UpdateCrossSaleOffer',
          offerId: 'cso_1',
          changes: { template: 'image_and_text', imageId: 'img_1' },
        })
        .then([
          { type: 'CrossSaleOfferUpdated', data: { offerId: 'cso_1', template: 'image_and_text', imageId: 'img_1' } },
        ]);
    });

    it('refuses unknown and deleted offers', () => {
      spec([])
        .when({ type: 'UpdateCrossSaleOffer', offerId: 'cso_1', changes: { title: 'x' } })
        .thenThrows(NotFoundError);
      spec([created, deleted])
        .when({ type: 'UpdateCrossSaleOffer', offerId: 'cso_1', changes: { title: 'x' } })
        .thenThrows(InvalidRequestError, /has been deleted/);
    });
  });

  describe('DeleteCrossSaleOffer', () => {
    it('deletes an offer once', () => {
      spec([created]).when({ type: 'DeleteCrossSaleOffer', offerId: 'cso_1' }).then([deleted]);
      spec([created, deleted])
        .when({ type: 'DeleteCrossSaleOffer', offerId: 'cso_1' })
        .thenThrows(InvalidRequestError, /has been deleted/);
      spec([]).when({ type: 'DeleteCrossSaleOffer', offerId: 'cso_1' }).thenThrows(NotFoundError);
    });
  });
});
