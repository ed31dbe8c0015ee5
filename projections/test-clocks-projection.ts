import { testClockView } from './views/test-clock-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** `test_clocks`: GET /test-clocks[/{id}] (filter: deleted) and the advances the scheduler resumes (status). */
export const testClocksProjection = viewProjection(
  'test-clocks',
  'test_clocks',
  scopedIndexes('_deleted', 'status'),
  testClockView,
);
