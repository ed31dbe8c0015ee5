import { planResource, planEventTypes } from '../../packages/domain/plan/plan-events.ts';
import { PlanCommands } from '../../packages/commands/plan-commands.ts';
import { planReadSide } from '../../projections/resources/plan-read-side.ts';
import { planRoutes } from '../api/routes/plan-routes.ts';
import { planSchema } from '../api/schemas/plan-schemas.ts';
import { plansCollection } from '../../projections/plans-projection.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly plans: PlanCommands;
  }
}

export const planModule = resourceModule({
  identity: planResource,
  events: planEventTypes,
  readSide: planReadSide,
  objects: resourceObjects({ collection: plansCollection, schema: planSchema, folded: planEventTypes }),
  commands: {
    plans: (wiring) => new PlanCommands(wiring.aggregates),
  },
  routes: planRoutes,
  eventData: planSchema,
});
