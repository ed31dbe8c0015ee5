import { publicEventsProjection } from '../public-events-projection.ts';
import type { ReadSide } from '../read-side.ts';

/** Public events: derived from the public events of every other resource (`object-read-sides.ts`). */
export const eventReadSide = { projections: [publicEventsProjection], publicEvents: null } satisfies ReadSide;
