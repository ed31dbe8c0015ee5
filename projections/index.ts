import type { Projection } from '../packages/projection/projection.ts';
import { accountsProjection } from './accounts-projection.ts';
import { blacklistProjection } from './blacklist-projection.ts';
import { cardsProjection } from './cards-projection.ts';
import { chargesProjection } from './charges-projection.ts';
import { creditsProjection } from './credits-projection.ts';
import { crossSaleOffersProjection } from './cross-sale-offers-projection.ts';
import { customersProjection } from './customers-projection.ts';
import { disputesProjection } from './disputes-projection.ts';
import { fraudWarningsProjection } from './fraud-warnings-projection.ts';
import { networkOutcomesDueProjection } from './network-outcomes-due-projection.ts';
import { paymentMethodChargesDueProjection } from './payment-method-charges-due-projection.ts';
import { paymentMethodsProjection } from './payment-methods-projection.ts';
import { plansProjection } from './plans-projection.ts';
import { subscriptionDueWorkProjection } from './subscription-due-work-projection.ts';
import { subscriptionsProjection } from './subscriptions-projection.ts';
import { testClocksProjection } from './test-clocks-projection.ts';
import { publicEventsProjection } from './public-events-projection.ts';
import { refundsProjection } from './refunds-projection.ts';
import { tokensProjection } from './tokens-projection.ts';
import { webhookDeliveriesProjection } from './webhook-deliveries-projection.ts';
import { webhookEndpointsProjection } from './webhook-endpoints-projection.ts';

/** Every read model of the service, by name (`npm run cli -- projections rebuild <name>`). */
export const allProjections = (): Projection[] => [
  accountsProjection,
  customersProjection,
  cardsProjection,
  tokensProjection,
  chargesProjection,
  refundsProjection,
  blacklistProjection,
  creditsProjection,
  plansProjection,
  crossSaleOffersProjection,
  subscriptionsProjection,
  subscriptionDueWorkProjection,
  testClocksProjection,
  publicEventsProjection,
  disputesProjection,
  fraudWarningsProjection,
  networkOutcomesDueProjection,
  webhookEndpointsProjection,
  webhookDeliveriesProjection,
  paymentMethodsProjection,
  paymentMethodChargesDueProjection,
];
