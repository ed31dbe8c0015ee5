import { filesProjection } from '../files-projection.ts';
import type { ReadSide } from '../read-side.ts';

/** Uploaded files. No public events: the spec's catalog has no type for them. */
export const fileReadSide = { projections: [filesProjection], publicEvents: null } satisfies ReadSide;
