import { cardExpiry } from '../domain/card/card-expiry.ts';
import { findMatchingRule, type ChargeScreening } from '../domain/blacklist/blacklist-matcher.ts';
import type { BlacklistRule } from '../domain/blacklist/blacklist-rule.ts';
import { chargeDecider, type ChargeCommand } from '../domain/charge/charge-decider.ts';
import {
  chargeStream,
  type Billing,
  type ChargeAttempt,
  type ChargeFailure,
  type ChargeType,
  type FraudStatus,
  type Shipping,
  type ThreeDSecureResult,
} from '../domain/charge/charge-events.ts';
import { customerDecider, type CustomerCommand } from '../domain/customer/customer-decider.ts';
import { customerStream } from '../domain/customer/customer-events.ts';
import type { NetworkOutcomeDue } from '../domain/charge/network-outcome-events.ts';
import { CardError } from '../domain/errors.ts';
import type { Metadata } from '../domain/metadata.ts';
import { newId } from '../ids/object-id.ts';
import type { CardNetwork, ThreeDSecureRequest } from '../network/card-network.ts';
import type { AggregateStore } from './aggregate-store.ts';
import { announcedOutcomes } from './announced-outcomes.ts';
import type { CardIntake } from './card-intake.ts';
import type { CardReference, CardSources } from './card-sources.ts';
import type { CommandContext, Tenant } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';
import { PaymentDeclined } from './payment-declined.ts';
import type { TokenCommands } from './token-commands.ts';

export interface CreateChargeInput {
  amount: number;
  currency: string;
  type?: ChargeType;
  description?: string;
  customerId?: string;
  card?: CardReference;
  captured?: boolean;
  shipping?: Shipping;
  billing?: Billing;
  threeDSecure?: Partial<ThreeDSecureRequest>;
  merchantAccountId?: string;
  metadata?: Metadata;
  /** Set by subscriptions for the charges they make. */
  subscriptionId?: string;
  /** Set by subscriptions: the id recorded before charging, so that a retried charge is recognised. */
  chargeId?: string;
}

export interface UpdateChargeInput {
  customerId?: string;
  description?: string | null;
  shipping?: Shipping | null;
  billing?: Billing | null;
  fraudDetails?: { status: FraudStatus };
  metadata?: Metadata;
}

export interface ChargeCommandsDeps {
  aggregates: AggregateStore;
  cardSources: CardSources;
  intake: CardIntake;
  tokens: TokenCommands;
  network: CardNetwork;
  /** Live blacklist rules of a tenant. */
  blacklistRules: (tenant: Tenant) => Promise<BlacklistRule[]>;
}

/**
 * Charges and their refunds. I/O happens before each decision (`docs/architecture.md`, "Pure
 * deciders"): card resolution, blacklist screening and the network's answer are inputs to the
 * charge decider.
 */
export class ChargeCommands {
  constructor(private readonly deps: ChargeCommandsDeps) {}

  /** Creates a charge; throws PaymentDeclined (after recording it) when it failed. */
  async create(input: CreateChargeInput, context: CommandContext): Promise<CommandOutcome> {
    const chargeId = input.chargeId ?? newId('char');
    const customerId = input.customerId ?? null;
    if (customerId !== null) await this.deps.cardSources.liveCustomer(customerId, context);
    const resolved = await this.deps.cardSources.forPayment(
      input.card,
      customerId,
      { kind: 'charge', chargeId },
      context,
    );
    const cardId = resolved.savedCardId ?? newId('card');
    const attempt: ChargeAttempt = {
      chargeId,
      amount: input.amount,
      currency: input.currency,
      type: input.type ?? null,
      description: input.description ?? null,
      customerId,
      subscriptionId: input.subscriptionId ?? null,
      cardId,
      card: resolved.card,
      captured: input.captured ?? true,
      shipping: input.shipping ?? null,
      billing: input.billing ?? null,
      threeDSecureInfo: null,
      avsCheck: null,
      fraudDetails: { status: 'unknown', score: 0 },
      merchantAccountId: input.merchantAccountId ?? null,
      metadata: input.metadata ?? {},
      networkTransactionId: null,
    };

    let failure: ChargeFailure | null = null;
    let expectedOutcomes: NetworkOutcomeDue[] = [];
    const rule = findMatchingRule(await this.deps.blacklistRules(context), screening(attempt));
    if (rule) {
      failure = {
        failureCode: 'blacklisted',
        failureMessage: 'The charge was blocked by a blacklist rule.',
        failureIssuerDeclineCode: null,
        blacklistRuleId: rule.ruleId,
      };
    } else {
      const number = await this.deps.intake.revealNumber(resolved.card);
      const address = input.billing?.address;
      const zip = address?.zip ?? resolved.card.addressZip;
      const outcome = await this.deps.network.authorize({
        mode: context.mode,
        number,
        expMonth: cardExpiry(resolved.card).month,
        expYear: cardExpiry(resolved.card).year,
        amount: input.amount,
        currency: input.currency,
        zip: zip ?? null,
        addressProvided: Boolean(address || resolved.card.addressLine1 || resolved.card.addressZip),
        threeDSecure: threeDSecureRequest(input.threeDSecure, verifiedFor(resolved.threeDSecureInfo, input)),
        now: context.now(),
      });
      attempt.threeDSecureInfo = outcome.threeDSecureInfo;
      attempt.avsCheck = outcome.avsResult ? { result: outcome.avsResult } : null;
      attempt.fraudDetails = outcome.fraud;
      attempt.networkTransactionId = outcome.transactionId;
      expectedOutcomes = announcedOutcomes(outcome.later, context.now());
      if (outcome.failure) {
        failure = {
          failureCode: outcome.failure.code,
          failureMessage: outcome.failure.message,
          failureIssuerDeclineCode: outcome.failure.issuerDeclineCode,
          blacklistRuleId: null,
        };
      }
    }

    const recorded = await this.run(chargeId, { type: 'RecordCharge', attempt, failure, expectedOutcomes }, context);
    if (failure) {
      const details = {
        chargeId,
        ...(failure.failureIssuerDeclineCode ? { issuerDeclineCode: failure.failureIssuerDeclineCode } : {}),
        ...(failure.blacklistRuleId ? { blacklistRuleId: failure.blacklistRuleId } : {}),
      };
      throw new PaymentDeclined(recorded, new CardError(failure.failureCode, failure.failureMessage, details));
    }
    // A successful charge with a new card for a customer saves the card as the default (spec).
    if (customerId !== null && resolved.source !== null) {
      const saved = await this.deps.aggregates.execute(
        customerDecider,
        customerStream(customerId),
        {
          type: 'AddCard',
          customerId,
          cardId,
          card: resolved.card,
          source: resolved.source,
          merchantAccountId: attempt.merchantAccountId,
        },
        context,
      );
      let position = saved.position ?? recorded.position;
      if (resolved.source.kind === 'token')
        position =
          (await this.deps.tokens.recordCard(resolved.source.tokenId, customerId, cardId, context)) ?? position;
      return { id: chargeId, position };
    }
    return recorded;
  }

  async update(chargeId: string, input: UpdateChargeInput, context: CommandContext): Promise<CommandOutcome> {
    const { fraudDetails, customerId, ...fields } = input;
    if (customerId !== undefined) await this.deps.cardSources.liveCustomer(customerId, context);
    const result = await this.deps.aggregates.execute(
      chargeDecider,
      chargeStream(chargeId),
      {
        type: 'UpdateCharge',
        chargeId,
        ...fields,
        ...(customerId !== undefined ? { customerId } : {}),
        ...(fraudDetails ? { fraudStatus: fraudDetails.status } : {}),
      },
      context,
    );
    let position = result.position;
    // Assigning a successful charge to a customer saves its card as the default (spec).
    const charge = result.state;
    const assigned = result.events.some((event) => event.type === 'ChargeUpdated' && 'customerId' in event.data);
    // A payment-method charge has no card to save.
    if (assigned && charge.status === 'successful' && customerId !== undefined && charge.cardId && charge.card) {
      const { cardId, card } = charge;
      const saved = await this.deps.aggregates.execute(
        customerDecider,
        customerStream(customerId),
        (state): CustomerCommand =>
          state.status !== 'none' && state.cards.some((saved) => saved.cardId === cardId)
            ? { type: 'UpdateCustomer', customerId, defaultCardId: cardId }
            : {
                type: 'AddCard',
                customerId,
                cardId,
                card,
                source: { kind: 'charge', chargeId },
                merchantAccountId: charge.merchantAccountId,
              },
        context,
      );
      position = saved.position ?? position;
    }
    return { id: chargeId, position };
  }

  async capture(chargeId: string, context: CommandContext): Promise<CommandOutcome> {
    const result = await this.deps.aggregates.execute(
      chargeDecider,
      chargeStream(chargeId),
      { type: 'CaptureCharge', chargeId },
      context,
    );
    if (result.state.status !== 'none' && result.state.networkTransactionId) {
      await this.deps.network.capture({
        mode: context.mode,
        transactionId: result.state.networkTransactionId,
        amount: result.state.amount,
        currency: result.state.currency,
      });
    }
    return { id: chargeId, position: result.position };
  }

  /**
   * Refunds part or all of what is left. The amount is reserved first (so concurrent refunds can
   * never exceed the captured amount), then the network's answer settles it.
   */
  async refund(
    chargeId: string,
    input: { amount?: number; reason?: 'fraudulent'; metadata?: Metadata },
    context: CommandContext,
  ): Promise<CommandOutcome & { refundId: string }> {
    const refundId = newId('re');
    const requested = await this.deps.aggregates.execute(
      chargeDecider,
      chargeStream(chargeId),
      {
        type: 'RequestRefund',
        chargeId,
        refundId,
        ...(input.amount !== undefined ? { amount: input.amount } : {}),
        reason: input.reason ?? null,
        metadata: input.metadata ?? {},
      },
      context,
    );
    const charge = requested.state;
    if (charge.status === 'none') throw new Error('unreachable: a refunded charge exists');
    const amount = charge.refunds.find((refund) => refund.refundId === refundId)!.amount;
    const { status } = await this.deps.network.refund({
      mode: context.mode,
      transactionId: charge.networkTransactionId ?? '',
      amount,
      currency: charge.currency,
    });
    const settled = await this.run(chargeId, { type: 'SettleRefund', chargeId, refundId, status }, context);
    return { id: chargeId, refundId, position: settled.position };
  }

  async updateRefund(
    chargeId: string,
    refundId: string,
    metadata: Metadata,
    context: CommandContext,
  ): Promise<CommandOutcome> {
    const result = await this.run(chargeId, { type: 'UpdateRefund', chargeId, refundId, metadata }, context);
    return { id: refundId, position: result.position };
  }

  private async run(chargeId: string, command: ChargeCommand, context: CommandContext): Promise<CommandOutcome> {
    const result = await this.deps.aggregates.execute(chargeDecider, chargeStream(chargeId), command, context);
    return { id: chargeId, position: result.position };
  }
}

/**
 * The token's own 3-D Secure result counts for a charge of the amount and currency it was verified
 * for; for any other amount the charge is as if the card had not been verified.
 */
export function verifiedFor(
  info: ThreeDSecureResult | null,
  payment: { amount: number; currency: string },
): ThreeDSecureResult | null {
  return info && info.amount === payment.amount && info.currency === payment.currency ? info : null;
}

/**
 * The 3-D Secure options of a charge: the request's flags with the spec's defaults, applied to the
 * token's verification when there is one (also without `threeDSecure` in the request); none when
 * the request asks for nothing and the token was not verified.
 */
function threeDSecureRequest(
  options: Partial<ThreeDSecureRequest> | undefined,
  verified: ThreeDSecureResult | null,
): ThreeDSecureRequest | null {
  if (!options && !verified) return null;
  return {
    requireAttempt: options?.requireAttempt ?? false,
    requireEnrolledCard: options?.requireEnrolledCard ?? false,
    requireSuccessfulLiabilityShiftForEnrolledCard: options?.requireSuccessfulLiabilityShiftForEnrolledCard ?? true,
    ...(verified ? { verified } : {}),
    ...(options?.external ? { external: options.external } : {}),
  };
}

/**
 * What the blacklist looks at: the card, the payer's data and the charge's metadata. The payer is
 * known only from the card's `fraudCheckData` (recorded from the payer's browser when the token was
 * created with the public key, or given by the merchant): the request creating the charge comes
 * from the merchant's server, whose address and headers say nothing about the payer.
 */
function screening(attempt: ChargeAttempt): ChargeScreening {
  const fraud = attempt.card.fraudCheckData;
  return {
    fingerprint: attempt.card.fingerprint,
    ipAddress: fraud?.ipAddress ?? null,
    ipCountry: fraud?.ipCountry ?? null,
    email: attempt.billing?.email ?? fraud?.email ?? null,
    userAgent: fraud?.userAgent ?? null,
    acceptLanguage: fraud?.acceptLanguage ?? null,
    metadata: attempt.metadata,
  };
}
