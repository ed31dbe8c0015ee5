import { fraudWarningView } from './views/fraud-warning-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** `fraud-warnings`: GET /fraud-warnings/{id} and the list (filters: charge, actionable). */
export const fraudWarningsProjection = viewProjection(
  'fraud-warnings',
  'fraud_warnings',
  scopedIndexes('charge', 'actionable'),
  fraudWarningView,
);
