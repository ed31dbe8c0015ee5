import { resourceNames, type ResourceName } from '../../../packages/domain/resources.ts';
import type { AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { blacklistRoutes } from './blacklist-routes.ts';
import { cardRoutes } from './card-routes.ts';
import { chargeRoutes } from './charge-routes.ts';
import { clientObjectRoutes } from './client-object-routes.ts';
import { creditRoutes } from './credit-routes.ts';
import { crossSaleOfferRoutes } from './cross-sale-offer-routes.ts';
import { customerRoutes } from './customer-routes.ts';
import { disputeRoutes } from './dispute-routes.ts';
import { eventRoutes } from './event-routes.ts';
import { fileRoutes } from './file-routes.ts';
import { fraudWarningRoutes } from './fraud-warning-routes.ts';
import { paymentMethodRoutes } from './payment-method-routes.ts';
import { objectHistoryRoutes } from './object-history-routes.ts';
import { planRoutes } from './plan-routes.ts';
import { subscriptionRoutes } from './subscription-routes.ts';
import { testClockRoutes } from './test-clock-routes.ts';
import { refundRoutes } from './refund-routes.ts';
import { tokenRoutes } from './token-routes.ts';
import { webhookEndpointRoutes } from './webhook-endpoint-routes.ts';

/** A resource's API routes, in documentation order. */
type ResourceRoutes = (deps: ApiDependencies) => AnyRouteDefinition[];

/** The routes of every resource; null for a resource the API does not expose. */
const resourceRoutes = {
  // A payer's page follows a payment-method charge by its client object id.
  charge: (deps) => [...chargeRoutes(deps), ...clientObjectRoutes(deps)],
  refund: refundRoutes,
  dispute: disputeRoutes,
  fraudWarning: fraudWarningRoutes,
  credit: creditRoutes,
  customer: customerRoutes,
  card: cardRoutes,
  paymentMethod: paymentMethodRoutes,
  plan: planRoutes,
  subscription: subscriptionRoutes,
  testClock: testClockRoutes,
  token: tokenRoutes,
  crossSaleOffer: crossSaleOfferRoutes,
  blacklistRule: blacklistRoutes,
  file: fileRoutes,
  event: eventRoutes,
  webhookEndpoint: webhookEndpointRoutes,
  webhookDelivery: null,
  account: null,
} satisfies Record<ResourceName, ResourceRoutes | null>;

/** Every route of the API, in documentation order: the order of the resource list, then the history of any object. */
export const apiRoutes = (deps: ApiDependencies): AnyRouteDefinition[] => [
  ...resourceNames.flatMap((resource) => {
    const routes: ResourceRoutes | null = resourceRoutes[resource];
    return routes ? routes(deps) : [];
  }),
  ...objectHistoryRoutes(deps),
];
