import { chargeAuthorizationDecider, chargeAuthorizationStream } from '../domain/charge/charge-authorization.ts';
import { chargeDecider } from '../domain/charge/charge-decider.ts';
import { chargeStream } from '../domain/charge/charge-events.ts';
import { announcedOutcomes } from './announced-outcomes.ts';
import { startedAt, type CardPaymentDeps } from './card-payment-creation.ts';
import type { CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';

/**
 * Settles a live charge whose intent no outcome followed (its request was cut short by a crash
 * and nobody retried it; the due-work scheduler runs this at the intent's `lookupDueAt`): asks
 * every processor of the account for the charge id. Found: the charge is recorded as the
 * processor answered, taken (`successful`, with the processor's id) or declined (`failed` with
 * its code); screening passed before the intent was recorded, so it is not made again. Found
 * nowhere: the intent is closed as not charged once every processor's idempotency window is
 * over, and looked up again then before that. Any processor that cannot be asked throws, and the
 * next scan asks again. Records nothing for an intent that is closed or whose charge exists.
 */
export async function settleUnansweredChargeIntent(
  deps: Pick<CardPaymentDeps, 'aggregates' | 'network'>,
  chargeId: string,
  context: CommandContext,
): Promise<CommandOutcome> {
  const intent = await deps.aggregates.load(chargeAuthorizationDecider, chargeAuthorizationStream(chargeId), context);
  const charge = await deps.aggregates.load(chargeDecider, chargeStream(chargeId), context);
  const unchanged = { id: chargeId, position: charge.events.at(-1)?.position ?? null };
  const open = intent.state.started && !intent.state.closed ? intent.state : null;
  if (open === null || open.attempt === null || charge.state.status !== 'none') return unchanged;
  const found = await deps.network.findAuthorization({
    mode: context.mode,
    accountId: context.accountId,
    reference: chargeId,
    since: startedAt(intent.events, 'ChargeAuthorizationStarted'),
  });
  if (found === null) {
    const { closableAt } = open;
    await deps.aggregates.execute(
      chargeAuthorizationDecider,
      chargeAuthorizationStream(chargeId),
      closableAt !== null && context.now().getTime() < Date.parse(closableAt)
        ? { type: 'NoteAuthorizationNotFound', chargeId, nextLookupAt: closableAt }
        : { type: 'CloseAuthorization', chargeId },
      context,
    );
    return unchanged;
  }
  const { later, approved: _approved, ...answer } = found;
  try {
    const recorded = await deps.aggregates.execute(
      chargeDecider,
      chargeStream(chargeId),
      {
        type: 'CreateCharge',
        attempt: open.attempt,
        accepted: { acceptedCurrencies: null, acceptedBrands: null },
        blacklistRule: null,
        authorization: { answered: true, ...answer, expectedOutcomes: announcedOutcomes(later, context.now()) },
      },
      context,
    );
    return { id: chargeId, position: recorded.position };
  } catch (error) {
    // The request's retry recorded the charge meanwhile, from the same answer of the processor.
    const meanwhile = await deps.aggregates.load(chargeDecider, chargeStream(chargeId), context);
    if (meanwhile.state.status === 'none') throw error;
    return { id: chargeId, position: meanwhile.events.at(-1)?.position ?? null };
  }
}
