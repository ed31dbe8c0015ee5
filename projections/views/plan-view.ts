import { planEventTypes, type PlanEvent } from '../../packages/domain/plan/plan-events.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import type { ObjectView } from './object-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';

export interface PlanDoc extends Document {
  objectType: 'plan';
  deleted?: true;
  _accountId: string;
  _mode: Mode;
  _deleted: boolean;
}

/** A plan as GET /plans/{id} renders it (spec: Plan). */
export const planView: ObjectView<PlanDoc> = {
  eventTypes: new Set(planEventTypes),
  objectId: (event) => (event.data as { planId?: string }).planId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & PlanEvent;
    switch (event.type) {
      case 'PlanCreated': {
        const { planId, ...terms } = event.data;
        return {
          id: planId,
          created: occurredAtSeconds(recorded),
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
          ...tenantFields(recorded),
          _deleted: false,
        };
      }
      case 'PlanUpdated': {
        if (!current) return current;
        const { planId: _id, ...changes } = event.data;
        return { ...current, ...changes };
      }
      case 'PlanDeleted':
        // Soft delete: still readable, with deleted: true.
        return current ? { ...current, deleted: true, _deleted: true } : current;
      default:
        return current;
    }
  },
};
