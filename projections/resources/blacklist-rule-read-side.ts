import { blacklistProjection } from '../blacklist-projection.ts';
import type { ReadSide } from '../read-side.ts';

/** Blacklist rules (no public events). */
export const blacklistRuleReadSide = { projections: [blacklistProjection], publicEvents: null } satisfies ReadSide;
