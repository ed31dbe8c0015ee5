import { publicEventsProjection } from '../public-events-projection.ts';
import type { ReadSide } from '../read-side.ts';

/** Public events: derived from the public events of every other resource. */
export const eventReadSide = {
  projections: (everyPublicObject) => [publicEventsProjection(everyPublicObject)],
  publicEvents: null,
} satisfies ReadSide;
