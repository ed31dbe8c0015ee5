import { expect } from 'chai';
import type { PlanEvent } from '../../../packages/domain/plan/plan-events.ts';
import { plansCollection, plansProjection } from '../../../projections/plans-projection.ts';
import { inStream, projectionSpec, withoutInternals } from './projection-spec.ts';

const plan = inStream('plan-plan_1');
const created: PlanEvent = {
  type: 'PlanCreated',
  data: {
    planId: 'plan_1',
    amount: 1000,
    currency: 'EUR',
    interval: 'month',
    intervalCount: 1,
    billingCycles: null,
    name: 'Gold',
    trialPeriodDays: 14,
    recursTo: null,
    metadata: { tier: 'gold' },
  },
};

describe('plans projection', () => {
  const spec = projectionSpec(plansProjection);

  it('renders a created plan as GET /plans/{id} shows it', async () => {
    await spec().given(plan(created, '2026-01-05T10:00:00Z'));
    const doc = await spec().get(plansCollection, 'plan_1');
    expect(withoutInternals(doc!)).to.deep.equal({
      id: 'plan_1',
      created: Date.parse('2026-01-05T10:00:00Z') / 1000,
      objectType: 'plan',
      amount: 1000,
      currency: 'EUR',
      interval: 'month',
      intervalCount: 1,
      billingCycles: null,
      name: 'Gold',
      trialPeriodDays: 14,
      recursTo: null,
      metadata: { tier: 'gold' },
    });
    expect(doc).to.include({ _accountId: 'acct_spec', _mode: 'test', _deleted: false });
  });

  it('applies only the changed terms of an update, and soft-deletes', async () => {
    await spec().given(plan(created));
    await spec().given(
      plan<PlanEvent>({ type: 'PlanUpdated', data: { planId: 'plan_1', name: 'Platinum', amount: 2000 } }),
    );
    expect(await spec().get(plansCollection, 'plan_1')).to.include({ name: 'Platinum', amount: 2000, currency: 'EUR' });
    await spec().given(plan<PlanEvent>({ type: 'PlanDeleted', data: { planId: 'plan_1' } }));
    expect(await spec().get(plansCollection, 'plan_1')).to.include({ deleted: true, _deleted: true, name: 'Platinum' });
    await spec().expectRebuildIdentical();
  });

  it('ignores changes to a plan it never saw created', async () => {
    await spec().given(plan<PlanEvent>({ type: 'PlanUpdated', data: { planId: 'plan_1', name: 'Ghost' } }));
    expect(await spec().all(plansCollection)).to.deep.equal([]);
  });
});
