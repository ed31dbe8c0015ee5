import { accountsProjection } from '../accounts-projection.ts';
import type { ReadSide } from '../read-side.ts';

/** Accounts and the API key lookup of authentication (no public events). */
export const accountReadSide = { projections: [accountsProjection], publicEvents: null } satisfies ReadSide;
