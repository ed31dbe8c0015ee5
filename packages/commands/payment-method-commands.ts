import type { Billing } from '../domain/charge/charge-events.ts';
import { InvalidRequestError, missingParameter } from '../domain/errors.ts';
import type { Metadata } from '../domain/metadata.ts';
import { paymentMethodDecider } from '../domain/payment-method/payment-method-decider.ts';
import {
  paymentMethodResource,
  paymentMethodStream,
  type PaymentMethodDetails,
  type PaymentMethodType,
} from '../domain/payment-method/payment-method-events.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CardSources } from './card-sources.ts';
import { createdObjectId, createsNewIds, type CommandContext } from './command-context.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { CommandOutcome } from './command-outcome.ts';

export interface CreatePaymentMethodInput {
  type: PaymentMethodType;
  billing?: Billing;
  customerId?: string;
  metadata?: Metadata;
}

/** Payment methods: one stream per payment method, soft-deleted. */
export class PaymentMethodCommands {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly cardSources: CardSources,
  ) {}

  async create(input: CreatePaymentMethodInput, context: CommandContext): Promise<CommandOutcome> {
    return this.record(await this.newDetails(input, context), context);
  }

  /**
   * Records a payment method from details made by `newDetails`; one that an earlier run of the same
   * idempotent request recorded (cut short by a crash) is answered as it was.
   */
  async record(details: PaymentMethodDetails, context: CommandContext): Promise<CommandOutcome> {
    const { paymentMethodId } = details;
    const earlier = await this.aggregates.createdEarlier(paymentMethodStream(paymentMethodId), context);
    if (earlier !== undefined) return { id: paymentMethodId, position: earlier };
    return this.aggregates.executeOn(
      paymentMethodDecider,
      paymentMethodStream,
      paymentMethodId,
      { type: 'CreatePaymentMethod', details },
      context,
    );
  }

  /**
   * Details of a new payment method (ids made, derived from an idempotent request; customer
   * checked), not recorded yet; or those an earlier run of the same request recorded.
   */
  async newDetails(input: CreatePaymentMethodInput, context: CommandContext): Promise<PaymentMethodDetails> {
    const paymentMethodId = createdObjectId(paymentMethodResource, context);
    if (!createsNewIds(context)) {
      const { state } = await this.aggregates.load(paymentMethodDecider, paymentMethodStream(paymentMethodId), context);
      if (state.status !== 'none') {
        const { status: _status, ...recorded } = state;
        return recorded;
      }
    }
    if (input.customerId !== undefined) await this.cardSources.liveCustomer(input.customerId, context);
    return {
      paymentMethodId,
      clientObjectId: createdObjectId('client_pm', context),
      type: input.type,
      billing: input.billing ?? null,
      customerId: input.customerId ?? null,
      metadata: input.metadata ?? {},
      createdAt: context.now().toISOString(),
    };
  }

  delete(paymentMethodId: string, context: CommandContext): Promise<CommandOutcome> {
    return this.aggregates.executeOn(
      paymentMethodDecider,
      paymentMethodStream,
      paymentMethodId,
      { type: 'DeletePaymentMethod', paymentMethodId },
      context,
    );
  }

  /**
   * A payment method a charge may use: it exists for the tenant, is not deleted, and belongs to
   * the charge's customer (spec: an identifier must be a payment method of `customerId`).
   */
  async chargeable(paymentMethodId: string, customerId: string | null, tenant: Tenant): Promise<PaymentMethodDetails> {
    const { state } = await this.aggregates.load(paymentMethodDecider, paymentMethodStream(paymentMethodId), tenant);
    if (state.status === 'none')
      throw new InvalidRequestError(`Invalid parameter: paymentMethod '${paymentMethodId}' does not exist`);
    if (state.status === 'deleted')
      throw new InvalidRequestError(`Invalid parameter: paymentMethod '${paymentMethodId}' has been deleted`);
    if (customerId === null)
      throw missingParameter('customerId', 'A payment method id names a payment method of that customer.');
    if (state.customerId !== customerId)
      throw new InvalidRequestError(
        `Invalid parameter: paymentMethod '${paymentMethodId}' is not a payment method of customer '${customerId}'`,
      );
    const { status: _status, ...details } = state;
    return details;
  }
}
