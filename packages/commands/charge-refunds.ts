import { chargeDecider } from '../domain/charge/charge-decider.ts';
import { chargeStream, refundResource } from '../domain/charge/charge-events.ts';
import type { ChargeState } from '../domain/charge/charge-state.ts';
import type { Metadata } from '../domain/metadata.ts';
import { NetworkOutcomeUnknown, type CardNetwork, type PaymentAddress } from '../network/card-network.ts';
import type { Tenant } from '../domain/tenant.ts';
import { faultPoint } from '../config/fault-injection.ts';
import type { AggregateStore } from './aggregate-store.ts';
import { createdObjectId, type CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';

/** What a charge's refunds work with. */
export interface RefundDeps {
  aggregates: AggregateStore;
  network: CardNetwork;
}

/**
 * Refunds part or all of what is left. The amount is reserved first (so concurrent refunds can
 * never exceed the captured amount), then the network's answer settles it. Safe to run again for
 * the same request (its refund id derives from it): a reserved refund is not reserved twice, one
 * already settled is answered as it is, and one reserved by an earlier run is first looked up at
 * the network, so it is never refunded twice. In live mode the reservation announces the
 * refund's lookup, due once its request can no longer be running: a refund whose answer is lost
 * (a timeout, a 5xx, a crash) stays `pending` and the worker settles it (`settlePendingRefund`).
 */
export async function refundCharge(
  deps: RefundDeps,
  chargeId: string,
  input: { amount?: number; reason?: 'fraudulent'; metadata?: Metadata },
  context: CommandContext,
): Promise<CommandOutcome & { refundId: string }> {
  const refundId = createdObjectId(refundResource, context);
  const before = await deps.aggregates.load(chargeDecider, chargeStream(chargeId), context);
  const earlier =
    before.state.status === 'none' ? undefined : before.state.refunds.find((r) => r.refundId === refundId);
  let position = before.events.at(-1)?.position ?? null;
  if (earlier && earlier.status !== 'pending') return { id: chargeId, refundId, position };
  let charge = before.state;
  if (!earlier) {
    const requested = await deps.aggregates.execute(
      chargeDecider,
      chargeStream(chargeId),
      {
        type: 'RequestRefund',
        chargeId,
        refundId,
        ...(input.amount !== undefined ? { amount: input.amount } : {}),
        reason: input.reason ?? null,
        metadata: input.metadata ?? {},
        ...(await refundLookupDueAt(deps, before.state, context)),
      },
      context,
    );
    charge = requested.state;
    position = requested.position ?? position;
  }
  if (charge.status === 'none') throw new Error('unreachable: a refunded charge exists');
  const payment = {
    ...refundAtNetwork(charge, refundId, context),
    amount: charge.refunds.find((refund) => refund.refundId === refundId)!.amount,
    currency: charge.currency,
  };
  faultPoint('refund.before-network-call', context);
  let status: 'successful' | 'failed';
  try {
    const known = earlier ? await deps.network.findRefund(payment) : null;
    status = (known ?? (await deps.network.refund(payment))).status;
  } catch (error) {
    // The processor may have refunded: pending, settled by the lookup the reservation announced.
    if (error instanceof NetworkOutcomeUnknown) return { id: chargeId, refundId, position };
    throw error;
  }
  faultPoint('refund.after-network-call', context);
  const settled = await settleRefund(deps, chargeId, refundId, status, context);
  return { id: chargeId, refundId, position: settled.position };
}

/** Records a reserved refund's outcome: successful, or failed with its amount refundable again. */
function settleRefund(
  deps: Pick<RefundDeps, 'aggregates'>,
  chargeId: string,
  refundId: string,
  status: 'successful' | 'failed',
  context: CommandContext,
): Promise<CommandOutcome> {
  return deps.aggregates.executeOn(
    chargeDecider,
    chargeStream,
    chargeId,
    { type: 'SettleRefund', chargeId, refundId, status },
    context,
  );
}

/** A refund of the charge as the network knows it: by the refund's id, at the charge's processor. */
function refundAtNetwork(
  charge: Exclude<ChargeState, { status: 'none' }>,
  refundId: string,
  context: CommandContext,
): Tenant & PaymentAddress & { reference: string } {
  return {
    mode: context.mode,
    accountId: context.accountId,
    reference: refundId,
    transactionId: charge.networkTransactionId ?? '',
    processorId: charge.processorId ?? null,
  };
}

/** Live mode: when a refund's lookup falls due, should its answer never be recorded. */
async function refundLookupDueAt(
  deps: RefundDeps,
  charge: ChargeState,
  context: CommandContext,
): Promise<{ lookupDueAt?: string }> {
  if (context.mode !== 'live' || charge.status === 'none') return {};
  const afterMs = await deps.network.lookupAfterMs({
    mode: context.mode,
    accountId: context.accountId,
    processorId: charge.processorId ?? null,
  });
  return { lookupDueAt: new Date(context.now().getTime() + afterMs).toISOString() };
}

/**
 * Settles a pending live refund by asking the charge's processor what became of it (the
 * due-work scheduler runs this once the refund's request can no longer be running). Found: its
 * outcome. Not received: failed, nothing was refunded, the amount is refundable again. A
 * processor that cannot be asked leaves it pending (throws), and the next scan asks again.
 * Records nothing for a refund that is not pending.
 */
export async function settlePendingRefund(
  deps: RefundDeps,
  chargeId: string,
  refundId: string,
  context: CommandContext,
): Promise<CommandOutcome> {
  const { state, events } = await deps.aggregates.load(chargeDecider, chargeStream(chargeId), context);
  const refund = state.status === 'none' ? undefined : state.refunds.find((r) => r.refundId === refundId);
  if (state.status === 'none' || refund?.status !== 'pending')
    return { id: chargeId, position: events.at(-1)?.position ?? null };
  const found = await deps.network.findRefund(refundAtNetwork(state, refundId, context));
  return settleRefund(deps, chargeId, refundId, found?.status ?? 'failed', context);
}

/** Changes a refund's metadata. */
export async function updateRefund(
  deps: Pick<RefundDeps, 'aggregates'>,
  chargeId: string,
  refundId: string,
  metadata: Metadata,
  context: CommandContext,
): Promise<CommandOutcome> {
  const result = await deps.aggregates.executeOn(
    chargeDecider,
    chargeStream,
    chargeId,
    { type: 'UpdateRefund', chargeId, refundId, metadata },
    context,
  );
  return { id: refundId, position: result.position };
}
