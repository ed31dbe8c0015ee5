import { declinedByNetwork } from '../domain/card/card-payment-failure.ts';
import { chargeDecider } from '../domain/charge/charge-decider.ts';
import { chargeStream, type ChargeFailure } from '../domain/charge/charge-events.ts';
import type { CardNetwork } from '../network/card-network.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';

/**
 * Settles a pending live charge by asking its processors what became of it (the due-work
 * scheduler runs this; `docs/payments.md`). Taken or declined there: recorded so. Received by
 * none of them: failed, nothing was taken. Any processor that cannot be asked leaves it pending
 * (throws), and the next scan asks again. Records nothing for a charge that is not pending.
 */
export async function settlePendingCharge(
  deps: { aggregates: AggregateStore; network: CardNetwork },
  chargeId: string,
  context: CommandContext,
): Promise<CommandOutcome> {
  const { state, events } = await deps.aggregates.load(chargeDecider, chargeStream(chargeId), context);
  if (state.status !== 'pending' || state.card === null)
    return { id: chargeId, position: events.at(-1)?.position ?? null };
  const found = await deps.network.findAuthorization({
    mode: context.mode,
    accountId: context.accountId,
    reference: chargeId,
  });
  const failure: ChargeFailure | null = found
    ? declinedByNetwork(found.failure)
    : {
        failureCode: 'processing_error',
        failureMessage: 'The processor never received the charge; nothing was taken.',
        failureIssuerDeclineCode: null,
        blacklistRuleId: null,
      };
  return deps.aggregates.executeOn(
    chargeDecider,
    chargeStream,
    chargeId,
    {
      type: 'SettleCardCharge',
      chargeId,
      networkTransactionId: found?.transactionId ?? null,
      processorId: found?.processorId ?? state.processorId ?? null,
      failure,
    },
    context,
  );
}
