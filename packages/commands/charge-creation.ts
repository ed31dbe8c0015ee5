import { chargeDecider } from '../domain/charge/charge-decider.ts';
import { chargeRefusal, type CreateChargeCommand } from '../domain/charge/charge-creation-decider.ts';
import {
  chargeResource,
  chargeStream,
  type ChargeAttempt,
  type ChargeFailure,
} from '../domain/charge/charge-events.ts';
import { customerDecider, type CustomerCommand } from '../domain/customer/customer-decider.ts';
import { cardResource, customerStream } from '../domain/customer/customer-events.ts';
import { faultPoint } from '../config/fault-injection.ts';
import type { ChargeState } from '../domain/charge/charge-state.ts';
import type { CardSource } from '../domain/customer/customer-events.ts';
import type { LoadedAggregate } from './aggregate-store.ts';
import {
  createCardPayment,
  matchingBlacklistRule,
  paymentDeclined,
  type CardPaymentDeps,
} from './card-payment-creation.ts';
import type { TokenCommands } from './token-commands.ts';
import type { ResolvedCard } from './card-sources.ts';
import { askNetworkToAuthorize } from './charge-network-authorization.ts';
import type { CreateChargeInput } from './charge-inputs.ts';
import { createdObjectId, createsNewIds, type CommandContext } from './command-context.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { CommandOutcome } from './command-outcome.ts';
import type { PaymentDeclined } from './payment-declined.ts';
import { isIdOf } from '../ids/object-id.ts';

/** What creating a charge works with: what every card payment does, and the tokens a card comes from. */
export interface ChargeCreationDeps extends CardPaymentDeps {
  tokens: TokenCommands;
}

/**
 * Creates a charge; throws PaymentDeclined (after recording it) when it failed. Safe to run
 * again for the same charge id (the retry of an idempotent request cut short by a crash, whose
 * charge id derives from the request): a recorded charge is answered as it was recorded and its
 * card saved if that step was cut off; an authorization that was started is looked up at the
 * network rather than made again.
 */
export async function createCharge(
  deps: ChargeCreationDeps,
  input: CreateChargeInput,
  context: CommandContext,
): Promise<CommandOutcome> {
  const chargeId = input.chargeId ?? createdObjectId(chargeResource, context);
  const customerId = input.customerId ?? null;
  const streamIsNew = input.chargeId === undefined && createsNewIds(context);
  return createCardPayment(
    deps,
    {
      id: chargeId,
      decider: chargeDecider,
      streamId: chargeStream(chargeId),
      streamIsNew,
      customerId,
      card: input.card,
      use: { kind: 'charge', chargeId },
      recordedVaultRef: (state) => (state.status === 'none' ? null : (state.card?.vaultRef ?? null)),
      record: async (resolved) =>
        deps.aggregates.execute(
          chargeDecider,
          chargeStream(chargeId),
          await createChargeCommand(deps, chargeId, input, resolved, context),
          context,
          { streamIsNew },
        ),
      answerNew: async (recorded, charge, resolved) => {
        faultPoint('charge.after-append', context);
        if (charge.status === 'none') throw new Error('unreachable: a recorded charge exists');
        if (charge.failure) throw declined(recorded, charge.failure);
        // Pending: the card is saved, if at all, once the lookup found the charge taken.
        if (charge.status === 'pending') return recorded;
        // A successful charge with a new card for a customer saves the card as the default (spec).
        if (customerId !== null && resolved.source !== null && charge.cardId !== null && charge.card !== null)
          return saveChargeCard(
            deps,
            recorded,
            { ...charge, cardId: charge.cardId, card: charge.card, customerId },
            resolved.source,
            context,
          );
        return recorded;
      },
      answerRecorded: (loaded) => recordedCharge(deps, loaded, input, context),
    },
    context,
  );
}

/**
 * The `CreateCharge` command with everything its decision needs: the account's settings, the
 * blacklist rule the charge's screening matches and, unless the decider refuses the charge with
 * those (`chargeRefusal`), the network's answer.
 */
async function createChargeCommand(
  deps: ChargeCreationDeps,
  chargeId: string,
  input: CreateChargeInput,
  resolved: ResolvedCard,
  context: CommandContext,
): Promise<CreateChargeCommand> {
  const cardId = resolved.savedCardId ?? createdObjectId(cardResource, context);
  const attempt = requestedAttempt(chargeId, input, resolved.card, cardId);
  const settings = await deps.accountSettings(context.accountId);
  const blacklistRule = await matchingBlacklistRule(
    deps.blacklistRules,
    { card: attempt.card, email: attempt.billing?.email ?? null, metadata: attempt.metadata },
    context,
  );
  const authorization =
    chargeRefusal(attempt, settings, blacklistRule) === null
      ? await askNetworkToAuthorize(deps, attempt, input, resolved, context)
      : null;
  return { type: 'CreateCharge', attempt, accepted: settings, blacklistRule, authorization };
}

/** A charge recorded earlier, answered as its creation was: the charge, or its decline; null when none. */
export async function recordedChargeOutcome(
  deps: Pick<ChargeCreationDeps, 'aggregates'>,
  chargeId: string,
  tenant: Tenant,
): Promise<CommandOutcome | null> {
  const { state, events } = await deps.aggregates.load(chargeDecider, chargeStream(chargeId), tenant);
  if (state.status === 'none') return null;
  const recorded = { id: chargeId, position: events.at(-1)?.position ?? null };
  if (state.failure) throw declined(recorded, state.failure);
  return recorded;
}

/** Saves the card of a successful charge to its customer, and notes it on the token it came from. */
async function saveChargeCard(
  deps: ChargeCreationDeps,
  recorded: CommandOutcome,
  charge: Pick<ChargeAttempt, 'chargeId' | 'cardId' | 'card' | 'merchantAccountId'> & { customerId: string },
  source: CardSource,
  context: CommandContext,
): Promise<CommandOutcome> {
  const { customerId, cardId } = charge;
  const saved = await deps.aggregates.execute(
    customerDecider,
    customerStream(customerId),
    // Already saved (the step ran before a crash cut the request short): an update that changes nothing.
    (state): CustomerCommand =>
      state.status !== 'none' && state.cards.some((card) => card.cardId === cardId)
        ? { type: 'UpdateCustomer', customerId }
        : {
            type: 'AddCard',
            customerId,
            cardId,
            card: charge.card,
            source,
            merchantAccountId: charge.merchantAccountId,
          },
    context,
  );
  let position = saved.position ?? recorded.position;
  if (source.kind === 'token')
    position = (await deps.tokens.recordCard(source.tokenId, customerId, cardId, context)) ?? position;
  return { id: charge.chargeId, position };
}

/**
 * The answer to a charge request whose charge is recorded already: the same decline, or the
 * charge, with the steps after recording it made if a crash cut them off.
 */
async function recordedCharge(
  deps: ChargeCreationDeps,
  loaded: LoadedAggregate<ChargeState>,
  input: CreateChargeInput,
  context: CommandContext,
): Promise<CommandOutcome> {
  const charge = loaded.state;
  if (charge.status === 'none') throw new Error('unreachable: a recorded charge exists');
  const recorded = { id: charge.chargeId, position: loaded.events.at(-1)?.position ?? null };
  if (charge.failure) throw declined(recorded, charge.failure);
  // Only a new card (details or a token) is saved; a saved card of the customer is one already.
  const source: CardSource | null =
    input.card === undefined || (typeof input.card === 'string' && isIdOf(cardResource, input.card))
      ? null
      : typeof input.card === 'string'
        ? { kind: 'token', tokenId: input.card }
        : { kind: 'details' };
  // A payment-method charge has no card to save.
  if (
    charge.card === null ||
    charge.cardId === null ||
    charge.customerId === null ||
    source === null ||
    input.customerId === undefined
  )
    return recorded;
  return saveChargeCard(
    deps,
    recorded,
    { ...charge, card: charge.card, cardId: charge.cardId, customerId: charge.customerId },
    source,
    context,
  );
}

const declined = (recorded: CommandOutcome, failure: ChargeFailure): PaymentDeclined =>
  paymentDeclined(recorded, failure, 'chargeId');

/** The charge as the request asks for it, before anything decides it. */
function requestedAttempt(
  chargeId: string,
  input: CreateChargeInput,
  card: ChargeAttempt['card'],
  cardId: string,
): ChargeAttempt {
  return {
    chargeId,
    amount: input.amount,
    currency: input.currency,
    type: input.type ?? null,
    description: input.description ?? null,
    customerId: input.customerId ?? null,
    subscriptionId: input.subscriptionId ?? null,
    cardId,
    card,
    captured: input.captured ?? true,
    shipping: input.shipping ?? null,
    billing: input.billing ?? null,
    threeDSecureInfo: null,
    avsCheck: null,
    fraudDetails: { status: 'unknown', score: 0 },
    merchantAccountId: input.merchantAccountId ?? null,
    metadata: input.metadata ?? {},
    networkTransactionId: null,
    ...(input.crossSale ? { crossSale: input.crossSale } : {}),
  };
}
