import { InvalidRequestError } from '../domain/errors.ts';
import { testClockDecider } from '../domain/test-clock/test-clock-decider.ts';
import { testClockResource, testClockStream } from '../domain/test-clock/test-clock-events.ts';
import { nextStep, type DueStep } from '../domain/subscription/subscription-schedule.ts';
import { subscriptionDecider } from '../domain/subscription/subscription-decider.ts';
import { subscriptionStream } from '../domain/subscription/subscription-events.ts';
import type { SubscriptionState } from '../domain/subscription/subscription-state.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { BackgroundWork } from './background-work.ts';
import { createdObjectId, type CommandContext } from './command-context.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { CommandOutcome } from './command-outcome.ts';
import type { SubscriptionCommands } from './subscription-commands.ts';

export interface TestClockCommandsDeps {
  aggregates: AggregateStore;
  subscriptions: SubscriptionCommands;
  background: BackgroundWork;
  /** Ids of the subscriptions whose customers live on the clock (a read model query). */
  subscriptionsOnClock: (tenant: Tenant, testClockId: string) => Promise<string[]>;
  /** Waits until everything up to a log position is visible to queries. */
  waitForProjections: (position: number) => Promise<void>;
}

/** Guards against a runaway advance (e.g. an hourly plan advanced by decades). */
const MAX_STEPS_PER_ADVANCE = 20_000;

/**
 * Test clocks (test mode only; `docs/architecture.md`, "Business time"): frozen time that customers live on. Advancing a clock
 * runs, in time order, every piece of work that falls due for its customers' subscriptions up to
 * the new time: the very steps the workers run on real time, each at its own due time.
 */
export class TestClockCommands {
  constructor(private readonly deps: TestClockCommandsDeps) {}

  async create(input: { frozenTime: number; name?: string }, context: CommandContext): Promise<CommandOutcome> {
    requireTestMode(context);
    const testClockId = createdObjectId(testClockResource, context);
    const earlier = await this.deps.aggregates.createdEarlier(testClockStream(testClockId), context);
    if (earlier !== undefined) return { id: testClockId, position: earlier };
    return this.deps.aggregates.executeOn(
      testClockDecider,
      testClockStream,
      testClockId,
      { type: 'CreateTestClock', testClockId, frozenTime: input.frozenTime, name: input.name ?? null },
      context,
    );
  }

  /** Moves the clock and hands the due work to a worker; the clock reports `advancing` until it is done. */
  async advance(testClockId: string, frozenTime: number, context: CommandContext): Promise<CommandOutcome> {
    requireTestMode(context);
    const outcome = await this.deps.aggregates.executeOn(
      testClockDecider,
      testClockStream,
      testClockId,
      { type: 'StartAdvance', testClockId, frozenTime },
      context,
    );
    // A lost hand-over is found again by the scheduler: the clock stays `advancing` in the read model.
    await this.deps.background
      .advanceClock({ accountId: context.accountId, mode: context.mode, testClockId, frozenTime })
      .catch(() => undefined);
    return outcome;
  }

  delete(testClockId: string, context: CommandContext): Promise<CommandOutcome> {
    requireTestMode(context);
    return this.deps.aggregates.executeOn(
      testClockDecider,
      testClockStream,
      testClockId,
      { type: 'DeleteTestClock', testClockId },
      context,
    );
  }

  /**
   * The advance job: runs every due step of the clock's subscriptions up to `frozenTime`, earliest
   * first, then marks the clock ready. Idempotent: a rerun (after a crash) finds the steps already
   * done and the clock already ready.
   */
  async runAdvance(
    tenant: Tenant,
    testClockId: string,
    frozenTime: number,
    system: Omit<CommandContext, 'now' | 'accountId' | 'mode'>,
  ): Promise<void> {
    const { state: clock } = await this.deps.aggregates.load(testClockDecider, testClockStream(testClockId), tenant);
    if (clock.status !== 'advancing' || clock.frozenTime !== frozenTime) return;
    const ids = await this.deps.subscriptionsOnClock(tenant, testClockId);
    const states = new Map<string, SubscriptionState>();
    const load = async (id: string) =>
      states.set(id, (await this.deps.aggregates.load(subscriptionDecider, subscriptionStream(id), tenant)).state);
    for (const id of ids) await load(id);
    let position = 0;
    let time = 0;
    for (let steps = 0; ; steps++) {
      const due = earliest(states, frozenTime);
      if (!due) break;
      if (steps >= MAX_STEPS_PER_ADVANCE)
        throw new Error(`Test clock ${testClockId}: more than ${MAX_STEPS_PER_ADVANCE} steps in one advance`);
      // Time never runs backwards: work that fell due while other work held it up (renewals
      // waiting for a past_due period to be paid) runs when it can, as a late worker would.
      time = Math.max(time, due.step.at);
      const at = new Date(time * 1000);
      const context: CommandContext = { ...system, ...tenant, now: () => at, testClockId };
      position = Math.max(
        position,
        (await this.deps.subscriptions.runStep(due.subscriptionId, due.step, context, { captureInline: true })) ?? 0,
      );
      const before = JSON.stringify(states.get(due.subscriptionId));
      await load(due.subscriptionId);
      // A step that changed nothing would come round again forever.
      if (JSON.stringify(states.get(due.subscriptionId)) === before) states.delete(due.subscriptionId);
    }
    // `ready` promises that every change is visible to queries.
    if (position > 0) await this.deps.waitForProjections(position);
    await this.deps.aggregates.execute(
      testClockDecider,
      testClockStream(testClockId),
      { type: 'CompleteAdvance', testClockId, frozenTime },
      {
        ...system,
        ...tenant,
        now: () => new Date(),
      },
    );
  }
}

/** The earliest step due at or before `until` (ties: the subscription first listed). */
function earliest(
  states: Map<string, SubscriptionState>,
  until: number,
): { subscriptionId: string; step: DueStep } | null {
  let found: { subscriptionId: string; step: DueStep } | null = null;
  for (const [subscriptionId, state] of states) {
    const step = nextStep(state);
    if (step && step.at <= until && (!found || step.at < found.step.at)) found = { subscriptionId, step };
  }
  return found;
}

function requireTestMode(context: Tenant): void {
  if (context.mode !== 'test') throw new InvalidRequestError('Test clocks exist only in test mode: use a test key');
}
