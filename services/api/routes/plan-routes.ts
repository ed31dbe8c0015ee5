import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { commandContext } from '../request-command-context.ts';
import { deletedSchema, listOf } from '../schemas/common-schemas.ts';
import { createPlanBody, listPlansQuery, planIdParams, planSchema, updatePlanBody } from '../schemas/plan-schemas.ts';
import { plansCollection } from '../../../projections/plans-projection.ts';

const tag = 'Plans';
const collection = plansCollection;

export function planRoutes({ commands, reader }: ApiDependencies): AnyRouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/plans',
      summary: 'Create a plan',
      tag,
      body: createPlanBody,
      response: planSchema,
      async handler(request) {
        const outcome = await commands.plans.create(request.body, commandContext(request));
        return reader.getAfter(outcome.position, collection, outcome.id, request.auth);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/plans/:planId',
      summary: 'Retrieve a plan (deleted plans are returned with deleted: true)',
      tag,
      params: planIdParams,
      response: planSchema,
      handler: (request) => reader.get(collection, request.params.planId, request.auth),
    }),
    defineRoute({
      method: 'post',
      path: '/plans/:planId',
      summary: 'Update a plan; amount and currency changes apply from the next charge of each subscription',
      tag,
      params: planIdParams,
      body: updatePlanBody,
      response: planSchema,
      async handler(request) {
        // Another tenant's plan must be a 404 before anything else is looked at.
        await reader.get(collection, request.params.planId, request.auth);
        const outcome = await commands.plans.update(request.params.planId, request.body, commandContext(request));
        return reader.getAfter(outcome.position, collection, outcome.id, request.auth);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/plans/:planId',
      summary: 'Delete a plan (soft delete; its subscriptions keep being charged until canceled)',
      tag,
      params: planIdParams,
      response: deletedSchema,
      async handler(request) {
        const outcome = await commands.plans.delete(request.params.planId, commandContext(request));
        await reader.getAfter(outcome.position, collection, outcome.id, request.auth);
        return { id: outcome.id };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/plans',
      summary: 'List plans, newest first',
      tag,
      query: listPlansQuery,
      response: listOf(planSchema),
      handler: (request) => {
        const { deleted, ...page } = request.query;
        return reader.list(collection, request.auth, page, { _deleted: deleted ?? false });
      },
    }),
  ];
}
