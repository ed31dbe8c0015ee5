import type { Metadata } from '../domain/metadata.ts';
import type { Tenant } from '../domain/tenant.ts';
import { captureCharge } from './charge-capture.ts';
import { createCharge, recordedChargeOutcome, type ChargeCreationDeps } from './charge-creation.ts';
import type { CreateChargeInput, UpdateChargeInput } from './charge-inputs.ts';
import { refundCharge, settlePendingRefund, updateRefund } from './charge-refunds.ts';
import { updateCharge } from './charge-updates.ts';
import type { CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';
import { settlePendingCharge } from './pending-charge-settlement.ts';
import { settleUnansweredChargeIntent } from './unanswered-charge-intent-settlement.ts';

/** What the charge commands work with: creating a charge needs all of it, the others a part. */
export type ChargeCommandsDeps = ChargeCreationDeps;

/**
 * Charges and their refunds. I/O happens before each decision (`docs/architecture.md`, "Pure
 * deciders"): card resolution, blacklist screening and the network's answer are inputs to the
 * charge decider. Each command is a module of its own: creation (`charge-creation.ts`, asking the
 * network in `charge-network-authorization.ts`), settling a pending charge
 * (`pending-charge-settlement.ts`), settling a charge whose intent no outcome followed
 * (`unanswered-charge-intent-settlement.ts`), updates (`charge-updates.ts`), capture (`charge-capture.ts`)
 * and refunds (`charge-refunds.ts`).
 */
export class ChargeCommands {
  constructor(private readonly deps: ChargeCommandsDeps) {}

  /** Creates a charge; throws PaymentDeclined (after recording it) when it failed (`createCharge`). */
  create(input: CreateChargeInput, context: CommandContext): Promise<CommandOutcome> {
    return createCharge(this.deps, input, context);
  }

  /** A charge recorded earlier, answered as its creation was: the charge, or its decline; null when none. */
  recordedOutcome(chargeId: string, tenant: Tenant): Promise<CommandOutcome | null> {
    return recordedChargeOutcome(this.deps, chargeId, tenant);
  }

  update(chargeId: string, input: UpdateChargeInput, context: CommandContext): Promise<CommandOutcome> {
    return updateCharge(this.deps, chargeId, input, context);
  }

  capture(chargeId: string, context: CommandContext): Promise<CommandOutcome> {
    return captureCharge(this.deps, chargeId, context);
  }

  /** Settles a pending live charge at its processors (the due-work scheduler runs this). */
  settlePending(chargeId: string, context: CommandContext): Promise<CommandOutcome> {
    return settlePendingCharge(this.deps, chargeId, context);
  }

  /**
   * Settles a live charge whose intent no outcome followed, from what its processors answer (the
   * due-work scheduler runs this at the intent's `lookupDueAt`).
   */
  settleUnansweredIntent(chargeId: string, context: CommandContext): Promise<CommandOutcome> {
    return settleUnansweredChargeIntent(this.deps, chargeId, context);
  }

  refund(
    chargeId: string,
    input: { amount?: number; reason?: 'fraudulent'; metadata?: Metadata },
    context: CommandContext,
  ): Promise<CommandOutcome & { refundId: string }> {
    return refundCharge(this.deps, chargeId, input, context);
  }

  /** Settles a pending live refund at the charge's processor (the due-work scheduler runs this). */
  settlePendingRefund(chargeId: string, refundId: string, context: CommandContext): Promise<CommandOutcome> {
    return settlePendingRefund(this.deps, chargeId, refundId, context);
  }

  updateRefund(
    chargeId: string,
    refundId: string,
    metadata: Metadata,
    context: CommandContext,
  ): Promise<CommandOutcome> {
    return updateRefund(this.deps, chargeId, refundId, metadata, context);
  }
}
