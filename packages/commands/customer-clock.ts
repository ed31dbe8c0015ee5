import { customerDecider } from '../domain/customer/customer-decider.ts';
import { customerStream } from '../domain/customer/customer-events.ts';
import { InvalidRequestError } from '../domain/errors.ts';
import { testClockDecider } from '../domain/test-clock/test-clock-decider.ts';
import { testClockStream } from '../domain/test-clock/test-clock-events.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CommandContext } from './command-context.ts';
import type { Tenant } from '../domain/tenant.ts';

/**
 * The business clock of a customer (`docs/architecture.md`, "Business time"): real time, or the frozen time of the test clock
 * the customer lives on. Every command for such a customer runs with the clock's time as `now`, so
 * the timestamps of its objects follow the clock.
 */
export class CustomerClock {
  constructor(private readonly aggregates: AggregateStore) {}

  /** `context` with `now` set to the test clock's time; unchanged without a clock. */
  async onClock(testClockId: string | null | undefined, context: CommandContext): Promise<CommandContext> {
    if (!testClockId) return context;
    const { state } = await this.aggregates.load(testClockDecider, testClockStream(testClockId), context);
    if (state.status === 'none') return context;
    const frozen = new Date(state.frozenTime * 1000);
    return { ...context, now: () => frozen, testClockId };
  }

  /** `context` on the clock of the customer (real time for a customer without one, or unknown). */
  async forCustomer(customerId: string, context: CommandContext): Promise<CommandContext> {
    const { state } = await this.aggregates.load(customerDecider, customerStream(customerId), context);
    return state.status === 'none' ? context : this.onClock(state.testClockId, context);
  }

  /** A clock a new customer may live on: test mode, existing, not deleted. */
  async requireUsable(testClockId: string, tenant: Tenant): Promise<void> {
    if (tenant.mode !== 'test')
      throw new InvalidRequestError('Invalid parameter: testClockId (test clocks exist only in test mode)');
    const { state } = await this.aggregates.load(testClockDecider, testClockStream(testClockId), tenant);
    if (state.status === 'none')
      throw new InvalidRequestError(`Invalid parameter: testClockId '${testClockId}' does not exist`);
    if (state.deleted) throw new InvalidRequestError(`Invalid parameter: test clock '${testClockId}' has been deleted`);
  }
}
