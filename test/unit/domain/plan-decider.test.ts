import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import { planDecider } from '../../../packages/domain/plan/plan-decider.ts';
import type { PlanEvent, PlanTerms } from '../../../packages/domain/plan/plan-events.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(planDecider);
const terms: PlanTerms = {
  amount: 1000,
  currency: 'EUR',
  interval: 'month',
  intervalCount: 1,
  billingCycles: null,
  name: 'Gold',
  trialPeriodDays: null,
  recursTo: null,
  metadata: {},
};
const created: PlanEvent = { type: 'PlanCreated', data: { planId: 'plan_1', ...terms } };
const deleted: PlanEvent = { type: 'PlanDeleted', data: { planId: 'plan_1' } };

describe('plan decider', () => {
  it('creates a plan once', () => {
    spec([]).when({ type: 'CreatePlan', planId: 'plan_1', terms }).then([created]);
    spec([created]).when({ type: 'CreatePlan', planId: 'plan_1', terms }).thenThrows(InvalidRequestError);
  });

  it('records only the fields that change, and nothing when nothing changes', () => {
    spec([created])
      .when({ type: 'UpdatePlan', planId: 'plan_1', changes: { amount: 1500, currency: 'EUR', metadata: {} } })
      .then([{ type: 'PlanUpdated', data: { planId: 'plan_1', amount: 1500 } }]);
    spec([created])
      .when({ type: 'UpdatePlan', planId: 'plan_1', changes: { name: 'Gold' } })
      .then([]);
  });

  it('deletes softly once; a deleted plan cannot be changed', () => {
    spec([created]).when({ type: 'DeletePlan', planId: 'plan_1' }).then([deleted]);
    spec([created, deleted])
      .when({ type: 'DeletePlan', planId: 'plan_1' })
      .thenThrows(InvalidRequestError, /deleted/);
    spec([created, deleted])
      .when({ type: 'UpdatePlan', planId: 'plan_1', changes: { amount: 1 } })
      .thenThrows(InvalidRequestError);
    spec([]).when({ type: 'DeletePlan', planId: 'plan_1' }).thenThrows(NotFoundError);
  });
});
