import { InvalidRequestError } from '../domain/errors.ts';
import type { Metadata } from '../domain/metadata.ts';
import { planDecider } from '../domain/plan/plan-decider.ts';
import { planResource, planStream, type PlanInterval, type PlanTerms } from '../domain/plan/plan-events.ts';
import type { PlanState } from '../domain/plan/plan-state.ts';
import type { AggregateStore } from './aggregate-store.ts';
import { createdObjectId, type CommandContext } from './command-context.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { CommandOutcome } from './command-outcome.ts';

export interface CreatePlanInput {
  amount: number;
  currency: string;
  interval: PlanInterval;
  intervalCount?: number;
  billingCycles?: number | null;
  name: string;
  trialPeriodDays?: number | null;
  recursTo?: string | null;
  metadata?: Metadata;
}

export type UpdatePlanInput = Partial<CreatePlanInput>;

/** A plan as subscriptions read it: live or deleted (deleting a plan does not stop its subscriptions). */
export type ExistingPlan = Exclude<PlanState, { status: 'none' }>;

/** Plans: one stream per plan, soft-deleted like customers. */
export class PlanCommands {
  constructor(private readonly aggregates: AggregateStore) {}

  async create(input: CreatePlanInput, context: CommandContext): Promise<CommandOutcome> {
    const planId = createdObjectId(planResource, context);
    const earlier = await this.aggregates.createdEarlier(planStream(planId), context);
    if (earlier !== undefined) return { id: planId, position: earlier };
    if (input.recursTo) await this.requireRecursionTarget(input.recursTo, context);
    const terms: PlanTerms = {
      amount: input.amount,
      currency: input.currency,
      interval: input.interval,
      intervalCount: input.intervalCount ?? 1,
      billingCycles: input.billingCycles ?? null,
      name: input.name,
      trialPeriodDays: input.trialPeriodDays ?? null,
      recursTo: input.recursTo ?? null,
      metadata: input.metadata ?? {},
    };
    return this.aggregates.executeOn(planDecider, planStream, planId, { type: 'CreatePlan', planId, terms }, context);
  }

  async update(planId: string, input: UpdatePlanInput, context: CommandContext): Promise<CommandOutcome> {
    if (input.recursTo) await this.requireRecursionTarget(input.recursTo, context);
    return this.aggregates.executeOn(
      planDecider,
      planStream,
      planId,
      { type: 'UpdatePlan', planId, changes: input },
      context,
    );
  }

  delete(planId: string, context: CommandContext): Promise<CommandOutcome> {
    return this.aggregates.executeOn(planDecider, planStream, planId, { type: 'DeletePlan', planId }, context);
  }

  /** The plan as it stands now, deleted or not; null when it does not exist for the tenant. */
  async find(planId: string, tenant: Tenant): Promise<ExistingPlan | null> {
    const { state } = await this.aggregates.load(planDecider, planStream(planId), tenant);
    return state.status === 'none' ? null : state;
  }

  private async requireRecursionTarget(planId: string, tenant: Tenant): Promise<void> {
    const plan = await this.find(planId, tenant);
    if (!plan) throw new InvalidRequestError(`Invalid parameter: recursTo '${planId}' does not exist`);
    if (plan.status === 'deleted')
      throw new InvalidRequestError(`Invalid parameter: recursTo '${planId}' has been deleted`);
  }
}
