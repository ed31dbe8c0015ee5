import { chargeDecider } from '../domain/charge/charge-decider.ts';
import { chargeResource, chargeStream, type ChargeType, type Shipping } from '../domain/charge/charge-events.ts';
import type { PaymentMethodChargeAttempt, ProviderOutcome } from '../domain/charge/payment-method-charge.ts';
import { InvalidRequestError } from '../domain/errors.ts';
import type { Metadata } from '../domain/metadata.ts';
import { faultPoint } from '../config/fault-injection.ts';
import type { AggregateStore } from './aggregate-store.ts';
import { createdObjectId, type CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';
import type { CreatePaymentMethodInput, PaymentMethodCommands } from './payment-method-commands.ts';

export interface CreatePaymentMethodChargeInput {
  amount: number;
  currency: string;
  type?: ChargeType;
  description?: string;
  customerId?: string;
  /** An existing payment method of `customerId`, or the details of a new one. */
  paymentMethod: string | CreatePaymentMethodInput;
  returnUrl: string;
  captured?: boolean;
  shipping?: Shipping;
  merchantAccountId?: string;
  metadata?: Metadata;
}

export interface PaymentMethodChargeTimings {
  /** How long the payer has to complete the payment at the provider. */
  expirySeconds: number;
  /** How long a provider takes to confirm a `processing` payment. */
  processingDelayMs: number;
}

/**
 * Charges paid with a payment method (docs/payments.md): recorded `pending` with the address of
 * the provider's page; the payer's choice there, or the worker (confirmation of a processed
 * payment, expiry of an abandoned one), completes them.
 */
export class PaymentMethodChargeCommands {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly paymentMethods: PaymentMethodCommands,
    private readonly timings: PaymentMethodChargeTimings,
  ) {}

  /** `redirectUrlOf` turns the new charge's client object id into the address of its provider page. */
  async create(
    input: CreatePaymentMethodChargeInput,
    redirectUrlOf: (clientObjectId: string) => string,
    context: CommandContext,
  ): Promise<CommandOutcome> {
    const chargeId = createdObjectId(chargeResource, context);
    // Made by an earlier run of this idempotent request (cut short by a crash): answered as it is.
    const earlier = await this.aggregates.createdEarlier(chargeStream(chargeId), context);
    if (earlier !== undefined) return { id: chargeId, position: earlier };
    const customerId = input.customerId ?? null;
    const paymentMethod =
      typeof input.paymentMethod === 'string'
        ? await this.paymentMethods.chargeable(input.paymentMethod, customerId, context)
        : await this.paymentMethods.newDetails(
            { ...input.paymentMethod, ...(customerId !== null ? { customerId } : {}) },
            context,
          );
    if (typeof input.paymentMethod !== 'string') {
      if (input.paymentMethod.customerId !== undefined && input.paymentMethod.customerId !== customerId)
        throw new InvalidRequestError("Invalid parameter: paymentMethod[customerId] must be the charge's customerId");
      // A charge with payment method details creates the payment method, as POST /payment-methods would.
      await this.paymentMethods.record(paymentMethod, context);
      faultPoint('payment-method.after-append', context);
    }
    const clientObjectId = createdObjectId('client_char', context);
    const now = context.now();
    const attempt: PaymentMethodChargeAttempt = {
      chargeId,
      clientObjectId,
      amount: input.amount,
      currency: input.currency,
      type: input.type ?? null,
      description: input.description ?? null,
      customerId,
      subscriptionId: null,
      paymentMethod,
      captured: input.captured ?? true,
      shipping: input.shipping ?? null,
      fraudDetails: { status: 'unknown', score: 0 },
      merchantAccountId: input.merchantAccountId ?? null,
      metadata: input.metadata ?? {},
      returnUrl: input.returnUrl,
      redirectUrl: redirectUrlOf(clientObjectId),
      expiresAt: new Date(now.getTime() + this.timings.expirySeconds * 1000).toISOString(),
    };
    return this.aggregates.executeOn(
      chargeDecider,
      chargeStream,
      chargeId,
      { type: 'RecordPaymentMethodCharge', attempt },
      context,
    );
  }

  /** The payer's choice on the provider page. */
  chooseOutcome(chargeId: string, outcome: ProviderOutcome, context: CommandContext): Promise<CommandOutcome> {
    const settlesAt = new Date(context.now().getTime() + this.timings.processingDelayMs).toISOString();
    return this.aggregates.executeOn(
      chargeDecider,
      chargeStream,
      chargeId,
      { type: 'ChooseProviderOutcome', chargeId, outcome, settlesAt },
      context,
    );
  }

  /** Due work: confirms or expires the charge when its time has come; otherwise records nothing. */
  settle(chargeId: string, context: CommandContext): Promise<CommandOutcome> {
    return this.aggregates.executeOn(
      chargeDecider,
      chargeStream,
      chargeId,
      { type: 'SettlePaymentMethodCharge', chargeId, now: context.now().toISOString() },
      context,
    );
  }
}
