import type { PlanInterval } from '../plan/plan-events.ts';

/**
 * How a subscription's periods are cut: from `anchor`, every `intervalCount` `interval`s.
 * Period `index` runs from boundary(index) to boundary(index + 1). Boundaries are computed from
 * the anchor, not from the previous boundary, so that monthly periods anchored on the 31st land
 * on the last day of shorter months and come back to the 31st afterwards.
 */
export interface BillingCycle {
  anchor: number;
  interval: PlanInterval;
  intervalCount: number;
  index: number;
}

const FIXED_SECONDS: Partial<Record<PlanInterval, number>> = { hour: 3_600, day: 86_400, week: 604_800 };

/** `from` (Unix seconds) plus `count` intervals. Months and years are calendar ones in UTC, clamped to the month's end. */
export function addIntervals(from: number, interval: PlanInterval, count: number): number {
  const fixed = FIXED_SECONDS[interval];
  if (fixed !== undefined) return from + fixed * count;
  const start = new Date(from * 1000);
  const months = start.getUTCMonth() + (interval === 'year' ? 12 * count : count);
  const year = start.getUTCFullYear() + Math.floor(months / 12);
  const month = ((months % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(start.getUTCDate(), lastDay);
  return Date.UTC(year, month, day, start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds()) / 1000;
}

export const periodStartOf = (cycle: BillingCycle): number =>
  addIntervals(cycle.anchor, cycle.interval, cycle.intervalCount * cycle.index);
export const periodEndOf = (cycle: BillingCycle): number =>
  addIntervals(cycle.anchor, cycle.interval, cycle.intervalCount * (cycle.index + 1));

/** A new cycle whose first period starts at `start`. */
export const firstCycle = (start: number, plan: { interval: PlanInterval; intervalCount: number }): BillingCycle => ({
  anchor: start,
  interval: plan.interval,
  intervalCount: plan.intervalCount,
  index: 0,
});

/**
 * The cycle of the period after `current`. A plan whose interval changed since the cycle began
 * starts a new cycle at the boundary (its new interval applies from there on).
 */
export function nextCycle(
  current: BillingCycle | null,
  boundary: number,
  plan: { interval: PlanInterval; intervalCount: number },
): BillingCycle {
  if (
    !current ||
    current.interval !== plan.interval ||
    current.intervalCount !== plan.intervalCount ||
    periodEndOf(current) !== boundary
  ) {
    return firstCycle(boundary, plan);
  }
  return { ...current, index: current.index + 1 };
}
