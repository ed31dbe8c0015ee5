import type { AccountProcessor } from '../domain/account/account-events.ts';
import { chargeDecider, type ChargeCommand } from '../domain/charge/charge-decider.ts';
import { chargeStream, disputeResource, refundResource } from '../domain/charge/charge-events.ts';
import type { DisputeReason } from '../domain/charge/dispute-events.ts';
import { GatewayError, InvalidRequestError, NotFoundError } from '../domain/errors.ts';
import { derivedId } from '../ids/object-id.ts';
import { processorAdapter } from '../network/processors/adapters.ts';
import {
  NotificationRefused,
  ProcessorOutcomeUnknown,
  ProcessorUnreachable,
  type ProcessorNotice,
  type ProcessorNotification,
} from '../network/processors/processor.ts';
import type { Vault } from '../vault/vault.ts';
import { accountProcessors } from './account-processors.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CommandContext } from './command-context.ts';
import { chargeResource } from '../domain/charge/charge-events.ts';
import { isIdOf } from '../ids/object-id.ts';

const DISPUTE_REASONS = new Set<DisputeReason>([
  'FRAUDULENT',
  'UNRECOGNIZED',
  'DUPLICATE',
  'SUBSCRIPTION_CANCELED',
  'PRODUCT_NOT_RECEIVED',
  'PRODUCT_UNACCEPTABLE',
  'CREDIT_NOT_PROCESSED',
  'GENERAL',
]);

const ACCOUNT_ID = /^acct_[A-Za-z0-9]{1,100}$/;
const PROCESSOR_ID = /^proc_[A-Za-z0-9]{1,100}$/;

/**
 * What became of one notification: how many domain events it recorded (0 for a repeat or an event
 * not followed), and the log position of the last one (null when none).
 */
export interface ReceivedNotification {
  recorded: number;
  chargeId: string | null;
  position: number | null;
}

export interface ProcessorEventCommandsDeps {
  aggregates: AggregateStore;
  vault: Vault;
}

/**
 * Notifications from an account's live processors (`docs/operations.md`, "Processor events"):
 * refunds and disputes made at the processor become the charge's refund and dispute events here.
 * The processor's adapter verifies each notification the way the processor documents it; the
 * charge is found by this service's reference in the processor's metadata and must be held by that
 * processor under the same id. Ids derive from the processor's ids, and the charge decider records
 * each refund and each dispute change once: a notification delivered twice records nothing the
 * second time, nor does the report of a refund this service made.
 */
export class ProcessorEventCommands {
  constructor(private readonly deps: ProcessorEventCommandsDeps) {}

  async receive(
    accountId: string,
    processorId: string,
    notification: ProcessorNotification,
    context: Omit<CommandContext, 'accountId' | 'mode'>,
  ): Promise<ReceivedNotification> {
    const config = await this.processor(accountId, processorId);
    const notice = await this.verified(config, notification);
    const chargeId = notice?.charge.reference ?? null;
    const nothing: ReceivedNotification = { recorded: 0, chargeId: null, position: null };
    if (!notice || chargeId === null || !isIdOf(chargeResource, chargeId)) return nothing;

    const tenant = { accountId, mode: 'live' as const };
    const { state } = await this.deps.aggregates.load(chargeDecider, chargeStream(chargeId), tenant);
    // Not a charge this processor holds for this account under that id: nothing of ours.
    if (state.status === 'none' || state.processorId !== processorId) return nothing;
    if (state.status === 'pending')
      throw new GatewayError(
        `Charge '${chargeId}' is still pending here; its lookup settles it shortly: deliver the notification again.`,
      );
    if (state.networkTransactionId !== notice.charge.processorId) return nothing;

    let recorded = 0;
    let position: number | null = null;
    for (const command of commandsOf(notice, chargeId, `${accountId}:${processorId}`)) {
      const result = await this.deps.aggregates.execute(chargeDecider, chargeStream(chargeId), command, {
        ...context,
        ...tenant,
      });
      recorded += result.events.length;
      position = result.position ?? position;
    }
    return { recorded, chargeId, position };
  }

  /** The account's processor the notification's address names; 404 for any other. */
  private async processor(accountId: string, processorId: string): Promise<AccountProcessor> {
    if (!ACCOUNT_ID.test(accountId) || !PROCESSOR_ID.test(processorId))
      throw new NotFoundError('Processor', processorId);
    const processors = await accountProcessors(this.deps.aggregates, accountId).catch((error: unknown) => {
      if (error instanceof NotFoundError) return [];
      throw error;
    });
    const config = processors.find((candidate) => candidate.processorId === processorId);
    if (!config) throw new NotFoundError('Processor', processorId);
    return config;
  }

  private async verified(
    config: AccountProcessor,
    notification: ProcessorNotification,
  ): Promise<ProcessorNotice | null> {
    const secretKey = await this.deps.vault.reveal(config.secretKeyRef);
    if (secretKey === null) throw new NotFoundError('Processor', config.processorId);
    const webhookSecret = config.webhookSecretRef ? await this.deps.vault.reveal(config.webhookSecretRef) : null;
    const processor = processorAdapter({ kind: config.kind, url: config.url, secretKey, timeoutMs: config.timeoutMs });
    try {
      return await processor.notice(notification, webhookSecret);
    } catch (error) {
      if (error instanceof NotificationRefused)
        throw new InvalidRequestError(`The notification was refused: ${error.message}`);
      // The event could not be fetched back: nothing is trusted, and the processor delivers again.
      if (error instanceof ProcessorOutcomeUnknown || error instanceof ProcessorUnreachable)
        throw new GatewayError(`The notification could not be verified at the processor now (${error.message})`);
      throw error;
    }
  }
}

/** The charge commands a notice asks for, with ids derived from the processor's ids. */
function commandsOf(notice: ProcessorNotice, chargeId: string, seed: string): ChargeCommand[] {
  if (notice.kind === 'refunds')
    return notice.refunds.map((refund) => ({
      type: 'RecordProcessorRefund',
      chargeId,
      refundId: derivedId(refundResource, seed, `processor-refund:${refund.processorRefundId}`),
      processorRefundId: refund.processorRefundId,
      reference: refund.reference,
      amount: refund.amount,
      currency: refund.currency.toUpperCase(),
      status: refund.status,
    }));
  const { dispute } = notice;
  const reason = dispute.reason.toUpperCase() as DisputeReason;
  return [
    {
      type: 'RecordProcessorDispute',
      chargeId,
      disputeId: derivedId(disputeResource, seed, `processor-dispute:${dispute.processorDisputeId}`),
      amount: dispute.amount,
      currency: dispute.currency.toUpperCase(),
      reason: DISPUTE_REASONS.has(reason) ? reason : 'GENERAL',
      stage: dispute.stage,
    },
  ];
}
