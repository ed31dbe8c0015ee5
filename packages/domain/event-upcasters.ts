import { cardExpiryAsSentUpcasters } from './card/card-expiry-upcasters.ts';
import { creditFailureRuleUpcasters } from './credit/credit-failure-upcasters.ts';
import { crossSaleOfferSubscriptionUpcasters } from './cross-sale-offer/cross-sale-offer-upcasters.ts';
import { EventUpcasters } from './event-upcasting.ts';

/** Every upcaster of every event type; a new one is added here with its tests. */
export const eventUpcasters = new EventUpcasters([
  ...cardExpiryAsSentUpcasters,
  ...creditFailureRuleUpcasters,
  ...crossSaleOfferSubscriptionUpcasters,
]);
