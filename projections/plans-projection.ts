import { planView } from './views/plan-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** `plans`: GET /plans[/{id}] (filter: deleted). */
export const plansProjection = viewProjection('plans', 'plans', scopedIndexes('_deleted'), planView);
