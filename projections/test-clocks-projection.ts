import { objectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { testClockView, type TestClockDoc } from './views/test-clock-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** GET /test-clocks[/{id}] (filter: deleted) and the advances the scheduler resumes (status). */
export const testClocksCollection = objectCollection<TestClockDoc>(
  'test_clocks',
  'Test clock',
  scopedIndexes('_deleted', 'status'),
);

/** `test-clocks`: one document per test clock. */
export const testClocksProjection = viewProjection('test-clocks', testClocksCollection, testClockView);
