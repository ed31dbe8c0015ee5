import { resourceIdentity, streamName } from '../resource-identity.ts';
import type { DomainEvent } from '../decider.ts';
import type { Metadata } from '../metadata.ts';
import { everyType } from '../event-types.ts';

export const planResource = resourceIdentity({ name: 'plan', idPrefix: 'plan', stream: 'own' });

/** Stream of one plan: `plan-<planId>`. */
export const planStream = (planId: string): string => streamName(planResource, planId);

export type PlanInterval = 'hour' | 'day' | 'week' | 'month' | 'year';
export const planIntervals: readonly PlanInterval[] = ['hour', 'day', 'week', 'month', 'year'];

/** Everything a plan says about billing (spec: Plan). */
export interface PlanTerms {
  amount: number;
  currency: string;
  interval: PlanInterval;
  intervalCount: number;
  /** Number of charges; null means no limit. */
  billingCycles: number | null;
  name: string;
  /** Null (or 0) when the plan has no trial. */
  trialPeriodDays: number | null;
  /** Plan a subscription moves to after `billingCycles` charges; null if none. */
  recursTo: string | null;
  metadata: Metadata;
}

export type PlanCreated = DomainEvent<'PlanCreated', { planId: string } & PlanTerms>;

/** Only the fields that changed are present. */
export type PlanUpdated = DomainEvent<'PlanUpdated', { planId: string } & Partial<PlanTerms>>;

export type PlanDeleted = DomainEvent<'PlanDeleted', { planId: string }>;

export type PlanEvent = PlanCreated | PlanUpdated | PlanDeleted;

export const planEventTypes = everyType<PlanEvent>()(['PlanCreated', 'PlanUpdated', 'PlanDeleted']);
