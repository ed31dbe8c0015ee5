import { objectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { fraudWarningView, type FraudWarningDoc } from './views/fraud-warning-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** GET /fraud-warnings/{id} and the list (filters: charge, actionable). */
export const fraudWarningsCollection = objectCollection<FraudWarningDoc>(
  'fraud_warnings',
  'Fraud warning',
  scopedIndexes('charge', 'actionable'),
);

/** `fraud-warnings`: one document per fraud warning. */
export const fraudWarningsProjection = viewProjection('fraud-warnings', fraudWarningsCollection, fraudWarningView);
