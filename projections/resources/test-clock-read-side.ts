import type { ReadSide } from '../read-side.ts';
import { testClocksProjection } from '../test-clocks-projection.ts';

/** Test clocks (no public events). */
export const testClockReadSide = { projections: [testClocksProjection], publicEvents: null } satisfies ReadSide;
