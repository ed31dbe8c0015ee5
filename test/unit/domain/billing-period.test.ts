import { expect } from 'chai';
import {
  addIntervals,
  firstCycle,
  nextCycle,
  periodEndOf,
} from '../../../packages/domain/subscription/billing-period.ts';

const at = (iso: string) => Date.parse(iso) / 1000;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

describe('billing periods', () => {
  it('adds fixed intervals as seconds', () => {
    expect(addIntervals(at('2026-03-01T00:00:00Z'), 'hour', 5)).to.equal(at('2026-03-01T05:00:00Z'));
    expect(addIntervals(at('2026-03-01T00:00:00Z'), 'day', 10)).to.equal(at('2026-03-11T00:00:00Z'));
    expect(addIntervals(at('2026-03-01T00:00:00Z'), 'week', 2)).to.equal(at('2026-03-15T00:00:00Z'));
  });

  it('adds calendar months and years in UTC, clamped to the end of shorter months', () => {
    expect(iso(addIntervals(at('2026-01-31T10:00:00Z'), 'month', 1))).to.equal('2026-02-28T10:00:00.000Z');
    expect(iso(addIntervals(at('2028-01-31T10:00:00Z'), 'month', 1))).to.equal('2028-02-29T10:00:00.000Z');
    expect(iso(addIntervals(at('2026-11-15T00:00:00Z'), 'month', 3))).to.equal('2027-02-15T00:00:00.000Z');
    expect(iso(addIntervals(at('2028-02-29T00:00:00Z'), 'year', 1))).to.equal('2029-02-28T00:00:00.000Z');
  });

  it('cuts monthly periods from the anchor, so the 31st comes back after a short month', () => {
    let cycle = firstCycle(at('2026-01-31T10:00:00Z'), { interval: 'month', intervalCount: 1 });
    const ends: string[] = [];
    for (let i = 0; i < 4; i++) {
      ends.push(iso(periodEndOf(cycle)).slice(0, 10));
      cycle = nextCycle(cycle, periodEndOf(cycle), { interval: 'month', intervalCount: 1 });
    }
    expect(ends).to.deep.equal(['2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31']);
  });

  it('starts a new cycle at the boundary when the plan interval changed', () => {
    const cycle = firstCycle(at('2026-01-01T00:00:00Z'), { interval: 'month', intervalCount: 1 });
    const next = nextCycle(cycle, periodEndOf(cycle), { interval: 'week', intervalCount: 1 });
    expect(next).to.deep.equal({ anchor: at('2026-02-01T00:00:00Z'), interval: 'week', intervalCount: 1, index: 0 });
    expect(periodEndOf(next)).to.equal(at('2026-02-08T00:00:00Z'));
  });
});
