import { chargeDecider } from '../domain/charge/charge-decider.ts';
import { chargeStream } from '../domain/charge/charge-events.ts';
import { customerDecider, type CustomerCommand } from '../domain/customer/customer-decider.ts';
import { customerStream } from '../domain/customer/customer-events.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CardSources } from './card-sources.ts';
import type { UpdateChargeInput } from './charge-inputs.ts';
import type { CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';

/** Changes a charge's details; assigning a successful charge to a customer saves its card there. */
export async function updateCharge(
  deps: { aggregates: AggregateStore; cardSources: CardSources },
  chargeId: string,
  input: UpdateChargeInput,
  context: CommandContext,
): Promise<CommandOutcome> {
  const { fraudDetails, customerId, ...fields } = input;
  if (customerId !== undefined) await deps.cardSources.liveCustomer(customerId, context);
  const result = await deps.aggregates.execute(
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
    const saved = await deps.aggregates.execute(
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
