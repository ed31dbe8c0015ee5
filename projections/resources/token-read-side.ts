import type { ReadSide } from '../read-side.ts';
import { tokensProjection } from '../tokens-projection.ts';

/** Tokens (no public events). */
export const tokenReadSide = { projections: [tokensProjection], publicEvents: null } satisfies ReadSide;
