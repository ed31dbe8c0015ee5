import type { EventUpcaster, RecordedData } from '../event-upcasting.ts';
import type { CrossSaleOfferEvent } from './cross-sale-offer-events.ts';

/**
 * Version 2 of `CrossSaleOfferCreated` says whether the offer defines a subscription
 * (`subscription`). Version 1 offers could only define a charge: `subscription: null`.
 */
export const crossSaleOfferSubscriptionUpcasters: EventUpcaster[] = [
  {
    eventType: 'CrossSaleOfferCreated' satisfies CrossSaleOfferEvent['type'],
    fromVersion: 1,
    upcast: (data: RecordedData): RecordedData => ({ ...data, subscription: null }),
  },
];
