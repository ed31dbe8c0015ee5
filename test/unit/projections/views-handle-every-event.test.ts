import { expect } from 'chai';
import { blacklistRuleEventTypes } from '../../../packages/domain/blacklist/blacklist-events.ts';
import { chargeEventTypes } from '../../../packages/domain/charge/charge-events.ts';
import { disputeEventTypes } from '../../../packages/domain/charge/dispute-events.ts';
import { fraudWarningEventTypes } from '../../../packages/domain/charge/fraud-warning-events.ts';
import { creditEventTypes } from '../../../packages/domain/credit/credit-events.ts';
import { crossSaleOfferEventTypes } from '../../../packages/domain/cross-sale-offer/cross-sale-offer-events.ts';
import { customerEventTypes } from '../../../packages/domain/customer/customer-events.ts';
import { everyType } from '../../../packages/domain/event-types.ts';
import type { PlanEvent } from '../../../packages/domain/plan/plan-events.ts';
import { planEventTypes } from '../../../packages/domain/plan/plan-events.ts';
import { subscriptionEventTypes } from '../../../packages/domain/subscription/subscription-events.ts';
import { testClockEventTypes } from '../../../packages/domain/test-clock/test-clock-events.ts';
import { tokenEventTypes } from '../../../packages/domain/token/token-events.ts';
import { webhookEndpointEventTypes } from '../../../packages/domain/webhook-endpoint/webhook-endpoint-events.ts';
import { eventProjection } from '../../../projections/event-projection.ts';
import { blacklistRuleView } from '../../../projections/views/blacklist-rule-view.ts';
import { cardView } from '../../../projections/views/card-view.ts';
import { chargeView } from '../../../projections/views/charge-view.ts';
import { creditView } from '../../../projections/views/credit-view.ts';
import { crossSaleOfferView } from '../../../projections/views/cross-sale-offer-view.ts';
import { customerView } from '../../../projections/views/customer-view.ts';
import { disputeView } from '../../../projections/views/dispute-view.ts';
import { fraudWarningView } from '../../../projections/views/fraud-warning-view.ts';
import { objectView, type ObjectView } from '../../../projections/views/object-view.ts';
import { planView, type PlanDoc } from '../../../projections/views/plan-view.ts';
import { refundView } from '../../../projections/views/refund-view.ts';
import { subscriptionView } from '../../../projections/views/subscription-view.ts';
import { testClockView } from '../../../projections/views/test-clock-view.ts';
import { tokenView } from '../../../projections/views/token-view.ts';
import { webhookEndpointView } from '../../../projections/views/webhook-endpoint-view.ts';

const sorted = (types: Iterable<string>): string[] => [...types].sort();

describe('object views', () => {
  it('each fold every event type of their resource', () => {
    const expected: [ObjectView, readonly string[]][] = [
      [customerView, customerEventTypes],
      [cardView, ['CardAdded', 'CardUpdated', 'CardDeleted']],
      [tokenView, tokenEventTypes],
      [chargeView, [...chargeEventTypes, ...disputeEventTypes, ...fraudWarningEventTypes]],
      [refundView, ['RefundRequested', 'RefundSettled', 'RefundUpdated']],
      [disputeView, disputeEventTypes],
      [fraudWarningView, fraudWarningEventTypes],
      [creditView, creditEventTypes],
      [planView, planEventTypes],
      [subscriptionView, subscriptionEventTypes],
      [crossSaleOfferView, crossSaleOfferEventTypes],
      [blacklistRuleView, blacklistRuleEventTypes],
      [testClockView, testClockEventTypes],
      [webhookEndpointView, webhookEndpointEventTypes],
    ];
    for (const [view, types] of expected) expect(sorted(view.eventTypes)).to.deep.equal(sorted(types));
  });

  it("do not compile when a handler of their event union is missing, nor does a partial list of a resource's event types", () => {
    const incomplete = () =>
      objectView<PlanDoc, PlanEvent>({
        objectId: (event) => event.data.planId,
        // @ts-expect-error PlanDeleted has no handler
        on: { PlanCreated: () => null, PlanUpdated: (current) => current },
      });
    const incompleteProjection = () =>
      eventProjection<PlanEvent>({
        name: 'plans-without-deletions',
        collections: {},
        // @ts-expect-error PlanDeleted has no handler
        on: { PlanCreated: () => undefined, PlanUpdated: () => undefined },
      });
    // @ts-expect-error a resource's list of event types names every type of its union
    const incompleteList = () => everyType<PlanEvent>()(['PlanCreated', 'PlanUpdated']);
    // Built anyway (the compiler is what refuses them): a missing type is simply not handled.
    expect(incompleteList()).to.not.include('PlanDeleted');
    expect(incomplete().eventTypes.has('PlanDeleted')).to.equal(false);
    expect(incompleteProjection().handles('PlanDeleted')).to.equal(false);
  });
});
