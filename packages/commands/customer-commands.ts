import { customerDecider, type CustomerCommand } from '../domain/customer/customer-decider.ts';
import { customerStream } from '../domain/customer/customer-events.ts';
import type { Metadata } from '../domain/metadata.ts';
import { newId } from '../ids/object-id.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CommandContext } from './command-context.ts';

export interface CreateCustomerInput {
  email: string;
  description?: string | null;
  metadata?: Metadata;
}

export interface UpdateCustomerInput {
  email?: string;
  description?: string | null;
  metadata?: Metadata;
}

/** Outcome of a command: the object it concerns and the log position to wait for before reading. */
export interface CommandOutcome {
  id: string;
  position: number | null;
}

export class CustomerCommands {
  constructor(private readonly aggregates: AggregateStore) {}

  async create(input: CreateCustomerInput, context: CommandContext): Promise<CommandOutcome> {
    const customerId = newId('cust');
    return this.run(customerId, { type: 'CreateCustomer', customerId, ...input }, context);
  }

  update(customerId: string, input: UpdateCustomerInput, context: CommandContext): Promise<CommandOutcome> {
    return this.run(customerId, { type: 'UpdateCustomer', customerId, ...input }, context);
  }

  delete(customerId: string, context: CommandContext): Promise<CommandOutcome> {
    return this.run(customerId, { type: 'DeleteCustomer', customerId }, context);
  }

  private async run(customerId: string, command: CustomerCommand, context: CommandContext): Promise<CommandOutcome> {
    const result = await this.aggregates.execute(customerDecider, customerStream(customerId), command, context);
    return { id: customerId, position: result.position };
  }
}
