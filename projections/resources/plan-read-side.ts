import { plansProjection } from '../plans-projection.ts';
import { publicEvents, type ReadSide } from '../read-side.ts';
import { planView } from '../views/plan-view.ts';

/** Plans. */
export const planReadSide = {
  projections: [plansProjection],
  publicEvents: publicEvents(planView, ['PLAN_CREATED', 'PLAN_UPDATED', 'PLAN_DELETED'], {
    PlanCreated: ['PLAN_CREATED'],
    PlanUpdated: ['PLAN_UPDATED'],
    PlanDeleted: ['PLAN_DELETED'],
  }),
} satisfies ReadSide;
