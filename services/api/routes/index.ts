import type { AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { blacklistRoutes } from './blacklist-routes.ts';
import { cardRoutes } from './card-routes.ts';
import { chargeRoutes } from './charge-routes.ts';
import { creditRoutes } from './credit-routes.ts';
import { customerRoutes } from './customer-routes.ts';
import { eventRoutes } from './event-routes.ts';
import { refundRoutes } from './refund-routes.ts';
import { tokenRoutes } from './token-routes.ts';

/** Every route of the API, in documentation order. */
export const apiRoutes = (deps: ApiDependencies): AnyRouteDefinition[] => [
  ...chargeRoutes(deps),
  ...refundRoutes(deps),
  ...creditRoutes(deps),
  ...customerRoutes(deps),
  ...cardRoutes(deps),
  ...tokenRoutes(deps),
  ...blacklistRoutes(deps),
  ...eventRoutes(deps),
];
