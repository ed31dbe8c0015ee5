import type { AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { resourceModules } from '../../resources/index.ts';
import { publicEventCatalog } from '../../resources/registries.ts';
import { objectHistoryRoutes } from './object-history-routes.ts';

/**
 * Every route of the API, in documentation order: each resource's (`routes` of its module), in the
 * order of the resource list, then the history of any object.
 */
export const apiRoutes = (deps: ApiDependencies): AnyRouteDefinition[] => [
  ...resourceModules.flatMap(({ routes }) => (routes ? routes(deps, publicEventCatalog) : [])),
  ...objectHistoryRoutes(deps),
];
