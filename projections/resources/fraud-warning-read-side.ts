import { fraudWarningsProjection } from '../fraud-warnings-projection.ts';
import type { ReadSide } from '../read-side.ts';

/** Fraud warnings: their public events are the charge's (`charge-read-side.ts`). */
export const fraudWarningReadSide = { projections: [fraudWarningsProjection], publicEvents: null } satisfies ReadSide;
