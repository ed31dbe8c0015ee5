import { processorIdempotencyWindowMs, type AccountProcessor } from '../domain/account/account-events.ts';
import type { ProcessorCardRef } from '../domain/card/card-snapshot.ts';
import { GatewayError, InvalidRequestError } from '../domain/errors.ts';
import type { Mode } from '../domain/mode.ts';
import type { Tenant } from '../domain/tenant.ts';
import {
  NetworkOutcomeUnknown,
  type AuthorizationRequest,
  type BinInfo,
  type CardNetwork,
  type CreditRequest,
  type LoadedProcessors,
} from './card-network.ts';
import {
  ProcessorOutcomeUnknown,
  ProcessorRefused,
  ProcessorUnreachable,
  type Processor,
  type ProcessorSettings,
} from './processors/processor.ts';
import { ableToCharge, takesBrand } from './processor-routing.ts';
import {
  answeredOrGatewayError,
  authorizationOutcome,
  binInfoOf,
  cardPaymentOf,
  creditOutcome,
  holderRequest,
} from './processor-terms.ts';

/** A processor no longer configured: the longest timeout an operator may give one. */
const DEFAULT_LOOKUP_TIMEOUT_MS = 120_000;

/**
 * How long after a request with an unknown outcome its lookup falls due: twice the processor's
 * timeout, by when an attempt still on its way has been answered or given up.
 */
const lookupDelayMs = (timeoutMs: number): number => 2 * timeoutMs;

export const LIVE_PROCESSING_NOT_CONFIGURED =
  'Live processing is not configured: this account has no processor for live mode, so live charges, captures, refunds and credits cannot be processed. Use a test mode key with the test cards.';

export interface LiveCardNetworkDeps {
  /** Test mode, card validation and BIN data. */
  simulator: CardNetwork;
  /** The account's processors, most preferred first. */
  processorsOf(accountId: string): Promise<AccountProcessor[]>;
  /** A processor's secret key from the vault; null when erased. */
  secretKey(ref: string): Promise<string | null>;
  /** The adapter of a processor API; null for a kind this build has no adapter for. */
  connect(settings: ProcessorSettings): Processor | null;
}

/**
 * The card network of every installation (`docs/architecture.md`, "Card network"): test mode runs
 * on the simulator and never calls a processor; live mode sends each payment to the account's
 * processors. A charge or credit goes to the first processor, in the account's order, whose
 * currencies and brands take it; to the next only when the request provably never reached that
 * one (`ProcessorUnreachable`), never after a decline and never when the outcome is unknown (it
 * may have taken the money: `NetworkOutcomeUnknown`, settled by a lookup). Captures and refunds go
 * to the processor that holds the charge. Without a processor, live mode answers a `gateway_error`.
 */
export class LiveCardNetwork implements CardNetwork {
  private readonly adapters = new Map<string, Processor>();

  constructor(private readonly deps: LiveCardNetworkDeps) {}

  binInfo: CardNetwork['binInfo'] = (number) => this.deps.simulator.binInfo(number);
  validate: CardNetwork['validate'] = (entry, now) => this.deps.simulator.validate(entry, now);

  /**
   * Asks each of the account's processors that take the card's brand to keep it, while its CVC is
   * at hand. One that cannot (unreachable, refused, no answer) is left out: the card's payments
   * there go without a CVC. Nothing moves money here, so nothing needs looking up later.
   */
  keepCard: CardNetwork['keepCard'] = async (request) => {
    if (request.mode === 'test') return this.deps.simulator.keepCard(request);
    const brand = this.binInfo(request.number).brand;
    const processorCards: ProcessorCardRef[] = [];
    let card: Partial<BinInfo> | null = null;
    for (const config of await this.deps.processorsOf(request.accountId)) {
      if (!takesBrand(config, brand)) continue;
      const processor = await this.adapter(config);
      if (!processor) continue;
      try {
        const kept = await processor.keepCard({
          reference: request.reference,
          number: request.number,
          expMonth: request.expMonth,
          expYear: request.expYear,
          cvc: request.cvc,
          ...(request.cardholderName ? { cardholderName: request.cardholderName } : {}),
        });
        processorCards.push({ processorId: config.processorId, storedCard: kept.storedCard });
        card ??= binInfoOf(kept.card);
      } catch (error) {
        if (!(error instanceof ProcessorUnreachable || error instanceof ProcessorOutcomeUnknown)) throw error;
      }
    }
    return { processorCards, card };
  };

  /**
   * Each processor that keeps a copy of the card, and is still configured, is sent the new expiry,
   * in turn. The first that does not take it (refused, unreachable, no answer) ends it with a
   * `gateway_error`: the caller records nothing, the processors before it hold the new expiry
   * already, and a retry sends it again to each (setting an expiry twice changes nothing).
   */
  updateKeptCardExpiry: CardNetwork['updateKeptCardExpiry'] = async (request) => {
    if (request.mode === 'test') return this.deps.simulator.updateKeptCardExpiry(request);
    const configured = await this.deps.processorsOf(request.accountId);
    for (const kept of request.processorCards) {
      const config = configured.find((candidate) => candidate.processorId === kept.processorId);
      // A processor no longer configured takes no more payments of the card.
      const processor = config && (await this.adapter(config));
      if (!processor) continue;
      try {
        await processor.updateStoredCardExpiry({
          reference: request.reference,
          storedCard: kept.storedCard,
          expMonth: request.expMonth,
          expYear: request.expYear,
        });
      } catch (error) {
        if (
          error instanceof ProcessorRefused ||
          error instanceof ProcessorUnreachable ||
          error instanceof ProcessorOutcomeUnknown
        )
          throw new GatewayError(
            `The card's new expiry could not be sent to processor ${kept.processorId}, which keeps the card; nothing was changed. Retry the request. (${error.message})`,
          );
        throw error;
      }
    }
  };

  authorize: CardNetwork['authorize'] = async (request) => {
    if (request.mode === 'test') return this.deps.simulator.authorize(request);
    return this.routed(request, async (processor, config) =>
      authorizationOutcome(
        await processor.authorize({ ...cardPaymentOf(request, config), capture: request.capture ?? true }),
        config.processorId,
      ),
    );
  };

  findAuthorization: CardNetwork['findAuthorization'] = async (request) => {
    if (request.mode === 'test') return this.deps.simulator.findAuthorization(request);
    return this.foundAtAny(request, async (processor, config) => {
      const found = await processor.findAuthorization(request.reference, request.since);
      return found && authorizationOutcome(found, config.processorId);
    });
  };

  capture: CardNetwork['capture'] = async (request) => {
    if (request.mode === 'test') return this.deps.simulator.capture(request);
    const processor = await this.holder(request);
    await answeredOrGatewayError(() => processor.capture(holderRequest(request)));
  };

  /**
   * A refund at the processor that holds the charge. Its outcome unknown (a timeout, a 5xx): the
   * processor may have refunded, so `NetworkOutcomeUnknown` (the refund stays pending until
   * `findRefund` settles it); never reached: a `gateway_error`, nothing refunded.
   */
  refund: CardNetwork['refund'] = async (request) => {
    if (request.mode === 'test') return this.deps.simulator.refund(request);
    const processor = await this.holder(request);
    try {
      const refunded = await processor.refund(holderRequest(request));
      return { status: refunded.status };
    } catch (error) {
      if (error instanceof ProcessorOutcomeUnknown)
        throw new NetworkOutcomeUnknown(error.message, request.processorId ?? '');
      if (error instanceof ProcessorUnreachable)
        throw new GatewayError(`The processor could not be reached; nothing was refunded. (${error.message})`);
      throw error;
    }
  };

  findRefund: CardNetwork['findRefund'] = async (request) => {
    if (request.mode === 'test') return this.deps.simulator.findRefund(request);
    const processor = await this.holder(request);
    try {
      const found = await processor.findRefund(request.reference, request.transactionId);
      return found && { status: found.status };
    } catch (error) {
      if (error instanceof ProcessorOutcomeUnknown || error instanceof ProcessorUnreachable)
        throw new NetworkOutcomeUnknown(
          `The lookup of ${request.reference} could not ask the processor: ${error.message}`,
          request.processorId ?? '',
        );
      throw error;
    }
  };

  lookupAfterMs: CardNetwork['lookupAfterMs'] = async (request) => {
    if (request.mode === 'test') return this.deps.simulator.lookupAfterMs(request);
    const config = (await this.deps.processorsOf(request.accountId)).find(
      (candidate) => candidate.processorId === request.processorId,
    );
    return lookupDelayMs(config?.timeoutMs ?? DEFAULT_LOOKUP_TIMEOUT_MS);
  };

  unansweredIntentTimes: CardNetwork['unansweredIntentTimes'] = async (request) => {
    if (request.mode === 'test') return this.deps.simulator.unansweredIntentTimes(request);
    const configured = await this.configured(request);
    const lookupAfterMs = lookupDelayMs(Math.max(0, ...configured.map((config) => config.timeoutMs)));
    const windowMs = Math.max(0, ...configured.map(processorIdempotencyWindowMs));
    return { lookupAfterMs, closableAfterMs: Math.max(lookupAfterMs, windowMs) };
  };

  processorsOf: CardNetwork['processorsOf'] = async (request) => {
    if (request.mode === 'test') return this.deps.simulator.processorsOf(request);
    return this.deps.processorsOf(request.accountId);
  };

  credit: CardNetwork['credit'] = async (request) => {
    if (request.mode === 'test') return this.deps.simulator.credit(request);
    return this.routed(request, async (processor, config) =>
      creditOutcome(await processor.credit(cardPaymentOf(request, config))),
    );
  };

  findCredit: CardNetwork['findCredit'] = async (request) => {
    if (request.mode === 'test') return this.deps.simulator.findCredit(request);
    return this.foundAtAny(request, async (processor) => {
      const found = await processor.findCredit(request.reference, request.since);
      return found && creditOutcome(found);
    });
  };

  /**
   * Live mode: the evidence goes to the processor that holds the charge, which decides the dispute
   * and reports the decision through its notifications (`docs/operations.md`, "Processor events"),
   * so nothing is announced here. Not taken (refused, unreachable, no answer): a `gateway_error`,
   * and the caller records nothing.
   */
  representDispute: CardNetwork['representDispute'] = async (request) => {
    if (request.mode === 'test') return this.deps.simulator.representDispute(request);
    const uploaded = Object.entries(request.evidence).find(([, value]) => value.startsWith('file_'));
    if (uploaded)
      throw new InvalidRequestError(
        `Invalid parameter: evidence[${uploaded[0]}] names an uploaded file, which the processor of a live charge does not hold; give the evidence as text`,
        `evidence[${uploaded[0]}]`,
      );
    const processor = await this.holder(request);
    try {
      await processor.submitDisputeEvidence({
        reference: request.reference,
        processorId: request.transactionId,
        evidence: request.evidence,
      });
    } catch (error) {
      if (error instanceof ProcessorRefused || error instanceof ProcessorUnreachable)
        throw new GatewayError(`The processor did not take the evidence; nothing was recorded. (${error.message})`);
      if (error instanceof ProcessorOutcomeUnknown)
        throw new GatewayError(
          `The processor did not answer; nothing was recorded. Retry the request with the same evidence. (${error.message})`,
        );
      throw error;
    }
    return null;
  };
  lookupThreeDSecure: CardNetwork['lookupThreeDSecure'] = async (request) =>
    this.testModeOnly(request.mode).lookupThreeDSecure(request);
  checkFastCredit: CardNetwork['checkFastCredit'] = async (request) =>
    this.testModeOnly(request.mode).checkFastCredit(request);

  /**
   * Sends a charge's authorization or a credit to the first processor that takes its currency and
   * its card's brand, on to the next only while unreachable.
   */
  private async routed<Outcome>(
    payment: AuthorizationRequest | CreditRequest,
    send: (processor: Processor, config: AccountProcessor) => Promise<Outcome>,
  ): Promise<Outcome> {
    const { currency } = payment;
    const brand = this.binInfo(payment.number).brand;
    const configured = await this.configured(payment);
    if (configured.length === 0) throw new GatewayError(LIVE_PROCESSING_NOT_CONFIGURED);
    const candidates = configured.filter(
      (config) => (config.currencies === null || config.currencies.includes(currency)) && takesBrand(config, brand),
    );
    if (candidates.length === 0)
      throw new GatewayError(`No processor of this account takes ${currency} payments with ${brand} cards.`);
    const unreachable: string[] = [];
    for (const config of ableToCharge(payment, candidates)) {
      const processor = await this.adapter(config);
      if (!processor) {
        unreachable.push(`${config.processorId}: no ${config.kind} adapter in this build`);
        continue;
      }
      try {
        return await send(processor, config);
      } catch (error) {
        if (error instanceof ProcessorUnreachable) {
          unreachable.push(`${config.processorId}: ${error.message}`);
          continue;
        }
        if (error instanceof ProcessorOutcomeUnknown)
          throw new NetworkOutcomeUnknown(error.message, config.processorId);
        throw error;
      }
    }
    throw new GatewayError(`No processor could be reached; nothing was charged (${unreachable.join('; ')}).`);
  }

  /**
   * What became of a reference: asked of every processor of the account (failover may have sent it
   * to any). Found at one: its answer. Found nowhere, with every one asked: null. A processor that
   * could not be asked leaves the outcome unknown.
   */
  private async foundAtAny<Outcome>(
    request: Tenant & LoadedProcessors & { reference: string },
    find: (processor: Processor, config: AccountProcessor) => Promise<Outcome | null>,
  ): Promise<Outcome | null> {
    let unanswered: { processorId: string; message: string } | null = null;
    for (const config of await this.configured(request)) {
      const processor = await this.adapter(config);
      if (!processor) continue;
      try {
        const found = await find(processor, config);
        if (found) return found;
      } catch (error) {
        if (!(error instanceof ProcessorUnreachable || error instanceof ProcessorOutcomeUnknown)) throw error;
        unanswered = { processorId: config.processorId, message: error.message };
      }
    }
    if (unanswered)
      throw new NetworkOutcomeUnknown(
        `The lookup of ${request.reference} could not ask every processor: ${unanswered.message}`,
        unanswered.processorId,
      );
    return null;
  }

  /** The account's processors: as the request loaded them, or loaded now. */
  private async configured(request: Tenant & LoadedProcessors): Promise<readonly AccountProcessor[]> {
    return request.processors ?? (await this.deps.processorsOf(request.accountId));
  }

  /** The processor that holds an authorized payment. */
  private async holder(request: Tenant & { processorId: string | null }): Promise<Processor> {
    const config = (await this.deps.processorsOf(request.accountId)).find(
      (candidate) => candidate.processorId === request.processorId,
    );
    const processor = config && (await this.adapter(config));
    if (!processor)
      throw new GatewayError(
        `The processor that holds this payment (${request.processorId ?? 'none'}) is no longer configured for this account.`,
      );
    return processor;
  }

  private async adapter(config: AccountProcessor): Promise<Processor | null> {
    const kept = this.adapters.get(config.processorId);
    if (kept) return kept;
    const secretKey = await this.deps.secretKey(config.secretKeyRef);
    if (secretKey === null) return null;
    const processor = this.deps.connect({ kind: config.kind, url: config.url, secretKey, timeoutMs: config.timeoutMs });
    if (processor) this.adapters.set(config.processorId, processor);
    return processor;
  }

  private testModeOnly(mode: Mode): CardNetwork {
    if (mode === 'live')
      throw new GatewayError('This live-mode operation is not available through the configured processors.');
    return this.deps.simulator;
  }
}
