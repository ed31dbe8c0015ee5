import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError } from '../errors.ts';
import { sameMetadata } from '../metadata.ts';
import type { PlanEvent, PlanTerms, PlanUpdated } from './plan-events.ts';
import { evolvePlan, initialPlanState, type PlanState } from './plan-state.ts';

/** `recursTo` names a plan that exists; that is checked before deciding (it is another stream). */
export type PlanCommand =
  | { type: 'CreatePlan'; planId: string; terms: PlanTerms }
  | { type: 'UpdatePlan'; planId: string; changes: Partial<PlanTerms> }
  | { type: 'DeletePlan'; planId: string };

export const planDecider: Decider<PlanCommand, PlanEvent, PlanState> = {
  initialState: initialPlanState,
  evolve: evolvePlan,
  decide(command, state) {
    switch (command.type) {
      case 'CreatePlan':
        if (state.status !== 'none') throw new InvalidRequestError(`Plan '${command.planId}' already exists`);
        return [{ type: 'PlanCreated', data: { planId: command.planId, ...command.terms } }];
      case 'UpdatePlan': {
        const plan = requireActivePlan(state, command.planId);
        const changes: PlanUpdated['data'] = { planId: command.planId };
        for (const [field, value] of Object.entries(command.changes) as [keyof PlanTerms, unknown][]) {
          if (value === undefined) continue;
          const same =
            field === 'metadata' ? sameMetadata(value as PlanTerms['metadata'], plan.metadata) : value === plan[field];
          if (!same) (changes as Record<string, unknown>)[field] = value;
        }
        // An update that changes nothing records nothing (and emits no PLAN_UPDATED).
        return Object.keys(changes).length > 1 ? [{ type: 'PlanUpdated', data: changes }] : [];
      }
      case 'DeletePlan':
        requireActivePlan(state, command.planId);
        return [{ type: 'PlanDeleted', data: { planId: command.planId } }];
    }
  },
};

function requireActivePlan(state: PlanState, planId: string): Exclude<PlanState, { status: 'none' }> {
  if (state.status === 'none') throw new NotFoundError('Plan', planId);
  if (state.status === 'deleted') throw new InvalidRequestError(`Plan '${planId}' has been deleted`);
  return state;
}
