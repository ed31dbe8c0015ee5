import { objectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { planView, type PlanDoc } from './views/plan-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** GET /plans[/{id}] (filter: deleted). */
export const plansCollection = objectCollection<PlanDoc>('plans', 'Plan', scopedIndexes('_deleted'));

/** `plans`: one document per plan. */
export const plansProjection = viewProjection('plans', plansCollection, planView);
