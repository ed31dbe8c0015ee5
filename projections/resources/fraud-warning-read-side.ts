import { fraudWarningsCollection, fraudWarningsProjection } from '../fraud-warnings-projection.ts';
import { hostedObjects, type HostedReadSide } from '../read-side.ts';

/** Fraud warnings (in their charge's stream): their public events are the charge's (`charge-read-side.ts`). */
export const fraudWarningReadSide = {
  projections: [fraudWarningsProjection],
  publicEvents: null,
  hosted: hostedObjects(fraudWarningsCollection, (warning) => warning.charge),
} satisfies HostedReadSide;
