import type { PlanEvent, PlanTerms } from './plan-events.ts';

export type PlanState = { status: 'none' } | ({ status: 'active' | 'deleted'; planId: string } & PlanTerms);

export const initialPlanState = (): PlanState => ({ status: 'none' });

export function evolvePlan(state: PlanState, event: PlanEvent): PlanState {
  if (event.type === 'PlanCreated') return { status: 'active', ...event.data };
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'PlanUpdated': {
      const { planId: _id, ...changes } = event.data;
      return { ...state, ...changes };
    }
    case 'PlanDeleted':
      return { ...state, status: 'deleted' };
  }
}
