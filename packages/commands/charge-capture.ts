import { chargeDecider } from '../domain/charge/charge-decider.ts';
import { chargeStream } from '../domain/charge/charge-events.ts';
import type { CardNetwork } from '../network/card-network.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';

/**
 * Captures at the network first, then records the capture: a capture the network did not make
 * is never recorded. The network's capture is keyed by the charge, so a repeat makes none.
 */
export async function captureCharge(
  deps: { aggregates: AggregateStore; network: CardNetwork },
  chargeId: string,
  context: CommandContext,
): Promise<CommandOutcome> {
  const before = await deps.aggregates.load(chargeDecider, chargeStream(chargeId), context);
  const charge = before.state;
  // The retry of this very request, cut short by a crash after its capture was recorded: that
  // capture is its answer, not "already captured".
  const capturedByThisRequest = before.events.some(
    (event) =>
      event.type === 'ChargeCaptured' &&
      context.idempotencyKey !== undefined &&
      event.metadata.idempotencyKey === context.idempotencyKey,
  );
  if (capturedByThisRequest) return { id: chargeId, position: null };
  // Refusals (unknown, failed, pending, captured) come from the decider below, before any network call.
  if (charge.status === 'successful' && !charge.captured && charge.networkTransactionId) {
    await deps.network.capture({
      mode: context.mode,
      accountId: context.accountId,
      reference: chargeId,
      transactionId: charge.networkTransactionId,
      processorId: charge.processorId ?? null,
      amount: charge.amount,
      currency: charge.currency,
    });
  }
  const result = await deps.aggregates.execute(
    chargeDecider,
    chargeStream(chargeId),
    { type: 'CaptureCharge', chargeId },
    context,
  );
  return { id: chargeId, position: result.position };
}
