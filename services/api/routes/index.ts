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
import { planRoutes } from './plan-routes.ts';
import { subscriptionRoutes } from './subscription-routes.ts';
import { testClockRoutes } from './test-clock-routes.ts';
import { refundRoutes } from './refund-routes.ts';
import { tokenRoutes } from './token-routes.ts';
import { webhookEndpointRoutes } from './webhook-endpoint-routes.ts';

/** Every route of the API, in documentation order. */
export const apiRoutes = (deps: ApiDependencies): AnyRouteDefinition[] => [
  ...chargeRoutes(deps),
  ...clientObjectRoutes(deps),
  ...refundRoutes(deps),
  ...disputeRoutes(deps),
  ...fileRoutes(deps),
  ...fraudWarningRoutes(deps),
  ...creditRoutes(deps),
  ...customerRoutes(deps),
  ...cardRoutes(deps),
  ...paymentMethodRoutes(deps),
  ...planRoutes(deps),
  ...subscriptionRoutes(deps),
  ...testClockRoutes(deps),
  ...tokenRoutes(deps),
  ...crossSaleOfferRoutes(deps),
  ...blacklistRoutes(deps),
  ...eventRoutes(deps),
  ...webhookEndpointRoutes(deps),
];
