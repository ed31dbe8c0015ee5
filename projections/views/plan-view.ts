import type { PlanEvent, PlanTerms } from '../../packages/domain/plan/plan-events.ts';
import { occurredAtSeconds, tenantFields, type TenantScope } from '../event-time.ts';
import { objectView, fromEventAlone } from './object-view.ts';

/** A plan as GET /plans/{id} renders it (spec: Plan). */
export interface PlanObject extends PlanTerms {
  id: string;
  created: number;
  objectType: 'plan';
  deleted?: true;
}

export interface PlanDoc extends PlanObject, TenantScope {
  _deleted: boolean;
}

export const planView = objectView<PlanDoc, PlanEvent>({
  objectId: (event) => event.data.planId,
  on: {
    PlanCreated: fromEventAlone((event) => {
      const { planId, ...terms } = event.data;
      return {
        id: planId,
        created: occurredAtSeconds(event),
        objectType: 'plan',
        amount: terms.amount,
        currency: terms.currency,
        interval: terms.interval,
        intervalCount: terms.intervalCount,
        billingCycles: terms.billingCycles,
        name: terms.name,
        trialPeriodDays: terms.trialPeriodDays,
        recursTo: terms.recursTo,
        metadata: terms.metadata,
        ...tenantFields(event),
        _deleted: false,
      };
    }),
    PlanUpdated: (current, event) => {
      if (!current) return current;
      const { planId: _id, ...changes } = event.data;
      return { ...current, ...changes };
    },
    // Soft delete: still readable, with deleted: true.
    PlanDeleted: (current) => current && { ...current, deleted: true, _deleted: true },
  },
});
