import type { ResourceName } from '../../packages/domain/resources.ts';
import type { ReadSide } from '../read-side.ts';
import { accountReadSide } from './account-read-side.ts';
import { blacklistRuleReadSide } from './blacklist-rule-read-side.ts';
import { cardReadSide } from './card-read-side.ts';
import { chargeReadSide } from './charge-read-side.ts';
import { creditReadSide } from './credit-read-side.ts';
import { crossSaleOfferReadSide } from './cross-sale-offer-read-side.ts';
import { customerReadSide } from './customer-read-side.ts';
import { disputeReadSide } from './dispute-read-side.ts';
import { fileReadSide } from './file-read-side.ts';
import { fraudWarningReadSide } from './fraud-warning-read-side.ts';
import { paymentMethodReadSide } from './payment-method-read-side.ts';
import { planReadSide } from './plan-read-side.ts';
import { refundReadSide } from './refund-read-side.ts';
import { subscriptionReadSide } from './subscription-read-side.ts';
import { testClockReadSide } from './test-clock-read-side.ts';
import { tokenReadSide } from './token-read-side.ts';
import { webhookEndpointReadSide } from './webhook-endpoint-read-side.ts';

/** Resources whose read models are built from the public events of all the others. */
export type PublicEventsResource = 'event' | 'webhookDelivery';

/**
 * The read side of every resource whose objects public events may carry. The public events
 * projection is derived from this record, so it cannot hold the public events resources
 * themselves (`index.ts` adds them).
 */
export const objectReadSides = {
  charge: chargeReadSide,
  refund: refundReadSide,
  dispute: disputeReadSide,
  fraudWarning: fraudWarningReadSide,
  credit: creditReadSide,
  customer: customerReadSide,
  card: cardReadSide,
  paymentMethod: paymentMethodReadSide,
  plan: planReadSide,
  subscription: subscriptionReadSide,
  testClock: testClockReadSide,
  token: tokenReadSide,
  crossSaleOffer: crossSaleOfferReadSide,
  blacklistRule: blacklistRuleReadSide,
  file: fileReadSide,
  webhookEndpoint: webhookEndpointReadSide,
  account: accountReadSide,
} as const satisfies Record<Exclude<ResourceName, PublicEventsResource>, ReadSide>;
