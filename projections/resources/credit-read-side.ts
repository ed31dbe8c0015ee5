import { creditsProjection } from '../credits-projection.ts';
import type { ReadSide } from '../read-side.ts';

/** Credits (no public events: the spec defines none). */
export const creditReadSide = { projections: [creditsProjection], publicEvents: null } satisfies ReadSide;
