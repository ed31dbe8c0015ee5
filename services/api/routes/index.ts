import type { AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { customerRoutes } from './customer-routes.ts';
import { eventRoutes } from './event-routes.ts';

/** Every route of the API, in documentation order. */
export const apiRoutes = (deps: ApiDependencies): AnyRouteDefinition[] => [...customerRoutes(deps), ...eventRoutes(deps)];
