import { expect } from 'chai';
import type { CrossSaleOfferEvent } from '../../../packages/domain/cross-sale-offer/cross-sale-offer-events.ts';
import {
  crossSaleOffersCollection,
  crossSaleOffersProjection,
} from '../../../projections/cross-sale-offers-projection.ts';
import { seconds } from './fixtures.ts';
import { inStream, projectionSpec, withoutInternals } from './projection-spec.ts';

const offer = inStream('crossSaleOffer-xso_1');
const at = '2026-01-21T00:00:00Z';

describe('cross-sale offers projection', () => {
  const spec = projectionSpec(crossSaleOffersProjection);

  it('renders an offer with the address of its image instead of the image id', async () => {
    await spec().given(
      offer<CrossSaleOfferEvent>(
        {
          type: 'CrossSaleOfferCreated',
          data: {
            offerId: 'xso_1',
            charge: { amount: 900, currency: 'EUR', capture: true },
            subscription: null,
            template: 'image_and_text',
            title: 'Socks',
            description: null,
            imageId: 'img_1',
            companyName: 'Shop',
            companyLocation: 'DE',
            termsAndConditionsUrl: null,
            visibleForAllPartners: true,
            partnerIds: [],
          },
        },
        at,
      ),
    );
    expect(withoutInternals((await spec().get(crossSaleOffersCollection, 'xso_1'))!)).to.deep.equal({
      id: 'xso_1',
      created: seconds(at),
      objectType: 'crossSaleOffer',
      accountId: 'acct_spec',
      charge: { amount: 900, currency: 'EUR', capture: true },
      subscription: null,
      template: 'image_and_text',
      title: 'Socks',
      description: null,
      imageUrl: '/cross-sale-offers/images/img_1.png',
      companyName: 'Shop',
      companyLocation: 'DE',
      termsAndConditionsUrl: null,
      visibleForAllPartners: true,
      partnerIds: [],
      visibleForPartnerIds: [],
    });
  });

  it('drops the image on update, changes the title and the partners, and soft-deletes', async () => {
    await spec().given(
      offer<CrossSaleOfferEvent>({
        type: 'CrossSaleOfferCreated',
        data: {
          offerId: 'xso_1',
          charge: { amount: 900, currency: 'EUR', capture: true },
          subscription: null,
          template: 'image_and_text',
          title: 'Socks',
          description: null,
          imageId: 'img_1',
          companyName: null,
          companyLocation: null,
          termsAndConditionsUrl: null,
          visibleForAllPartners: false,
          partnerIds: ['acct_2'],
        },
      }),
    );
    await spec().given(
      offer<CrossSaleOfferEvent>({
        type: 'CrossSaleOfferUpdated',
        data: { offerId: 'xso_1', imageId: null, template: 'text_only', title: 'Warm socks', partnerIds: ['acct_3'] },
      }),
      offer<CrossSaleOfferEvent>({ type: 'CrossSaleOfferDeleted', data: { offerId: 'xso_1' } }),
    );
    const doc = (await spec().get(crossSaleOffersCollection, 'xso_1'))!;
    expect(doc).to.include({
      imageUrl: null,
      template: 'text_only',
      title: 'Warm socks',
      deleted: true,
      _deleted: true,
    });
    expect(doc).to.not.have.property('imageId');
    // The partner setting by both its names.
    expect(doc).to.deep.include({ partnerIds: ['acct_3'], visibleForPartnerIds: ['acct_3'] });
    await spec().expectRebuildIdentical();
  });
});
