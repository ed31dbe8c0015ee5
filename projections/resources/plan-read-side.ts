import { plansProjection } from '../plans-projection.ts';
import { publicEvents, type ReadSide } from '../read-side.ts';

/** Plans. */
export const planReadSide = {
  projections: [plansProjection],
  publicEvents: publicEvents(plansProjection, ['PLAN_CREATED', 'PLAN_UPDATED', 'PLAN_DELETED'], {
    PlanCreated: ['PLAN_CREATED'],
    PlanUpdated: ['PLAN_UPDATED'],
    PlanDeleted: ['PLAN_DELETED'],
  }),
} satisfies ReadSide;
