import type { CardSnapshot } from '../card/card-snapshot.ts';
import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError } from '../errors.ts';
import { sameMetadata, type Metadata } from '../metadata.ts';
import type { CardChanges, CardSource, CustomerEvent, CustomerUpdated } from './customer-events.ts';
import {
  evolveCustomer,
  initialCustomerState,
  liveCards,
  type CustomerState,
  type SavedCard,
} from './customer-state.ts';

/** A card to save: it becomes the customer's default. */
export interface NewCard {
  cardId: string;
  card: CardSnapshot;
  source: CardSource;
  merchantAccountId?: string | null;
}

export type CustomerCommand =
  | {
      type: 'CreateCustomer';
      customerId: string;
      email: string;
      description?: string | null;
      metadata?: Metadata;
      card?: NewCard;
      testClockId?: string;
    }
  | {
      type: 'UpdateCustomer';
      customerId: string;
      email?: string;
      description?: string | null;
      metadata?: Metadata;
      defaultCardId?: string;
      card?: NewCard;
    }
  | { type: 'DeleteCustomer'; customerId: string }
  /** A new card always becomes the default (spec: Customer card default). */
  | ({ type: 'AddCard'; customerId: string } & NewCard)
  | { type: 'UpdateCard'; customerId: string; cardId: string; changes: CardChanges }
  | { type: 'DeleteCard'; customerId: string; cardId: string };

type ExistingCustomer = Exclude<CustomerState, { status: 'none' }>;

export const customerDecider: Decider<CustomerCommand, CustomerEvent, CustomerState> = {
  initialState: initialCustomerState,
  evolve: evolveCustomer,
  decide(command, state) {
    switch (command.type) {
      case 'CreateCustomer':
        if (state.status !== 'none') throw new InvalidRequestError(`Customer '${command.customerId}' already exists`);
        return [
          {
            type: 'CustomerCreated',
            data: {
              customerId: command.customerId,
              email: command.email,
              description: command.description ?? null,
              metadata: command.metadata ?? {},
              ...(command.testClockId ? { testClockId: command.testClockId } : {}),
            },
          },
          ...(command.card ? addCard(command.customerId, command.card) : []),
        ];
      case 'UpdateCustomer': {
        const current = requireActiveCustomer(state, command.customerId);
        const events: CustomerEvent[] = [];
        const changes: CustomerUpdated['data'] = { customerId: command.customerId };
        if (command.email !== undefined && command.email !== current.email) changes.email = command.email;
        if (command.description !== undefined && command.description !== current.description)
          changes.description = command.description;
        if (command.metadata !== undefined && !sameMetadata(command.metadata, current.metadata))
          changes.metadata = command.metadata;
        // An update that changes nothing records nothing (and so emits no CUSTOMER_UPDATED).
        if (Object.keys(changes).length > 1) events.push({ type: 'CustomerUpdated', data: changes });
        if (command.card) {
          requireNewCardId(current, command.card.cardId);
          events.push(...addCard(command.customerId, command.card));
        } else if (command.defaultCardId !== undefined && command.defaultCardId !== current.defaultCardId) {
          requireLiveCard(current, command.defaultCardId, 'defaultCardId');
          events.push({
            type: 'DefaultCardChanged',
            data: { customerId: command.customerId, defaultCardId: command.defaultCardId },
          });
        }
        return events;
      }
      case 'DeleteCustomer':
        requireActiveCustomer(state, command.customerId);
        return [{ type: 'CustomerDeleted', data: { customerId: command.customerId } }];
      case 'AddCard': {
        const { type: _type, customerId, ...card } = command;
        requireNewCardId(requireActiveCustomer(state, customerId), card.cardId);
        return addCard(customerId, card);
      }
      case 'UpdateCard': {
        const current = requireActiveCustomer(state, command.customerId);
        const saved = requireLiveCard(current, command.cardId);
        const changes: CardChanges = {};
        for (const [field, value] of Object.entries(command.changes) as [keyof CardChanges, unknown][]) {
          if (value === undefined) continue;
          if (field === 'fastCredit' || (saved.card as unknown as Record<string, unknown>)[field] !== value) {
            (changes as Record<string, unknown>)[field] = value;
          }
        }
        return Object.keys(changes).length > 0
          ? [{ type: 'CardUpdated', data: { customerId: command.customerId, cardId: command.cardId, ...changes } }]
          : [];
      }
      case 'DeleteCard': {
        const current = requireActiveCustomer(state, command.customerId);
        requireLiveCard(current, command.cardId);
        const events: CustomerEvent[] = [
          { type: 'CardDeleted', data: { customerId: command.customerId, cardId: command.cardId } },
        ];
        if (current.defaultCardId === command.cardId) {
          // The most recently added remaining card becomes the default; none left: null.
          const remaining = liveCards(current).filter((saved) => saved.cardId !== command.cardId);
          const next = remaining[remaining.length - 1]?.cardId ?? null;
          events.push({ type: 'DefaultCardChanged', data: { customerId: command.customerId, defaultCardId: next } });
        }
        return events;
      }
    }
  },
};

function addCard(customerId: string, card: NewCard): CustomerEvent[] {
  return [
    {
      type: 'CardAdded',
      data: {
        customerId,
        cardId: card.cardId,
        card: card.card,
        source: card.source,
        merchantAccountId: card.merchantAccountId ?? null,
      },
    },
    { type: 'DefaultCardChanged', data: { customerId, defaultCardId: card.cardId } },
  ];
}

function requireNewCardId(customer: ExistingCustomer, cardId: string): void {
  if (customer.cards.some((saved) => saved.cardId === cardId))
    throw new InvalidRequestError(`Card '${cardId}' is already saved for this customer`);
}

function requireActiveCustomer(state: CustomerState, customerId: string): ExistingCustomer {
  if (state.status === 'none') throw new NotFoundError('Customer', customerId);
  if (state.status === 'deleted') throw new InvalidRequestError(`Customer '${customerId}' has been deleted`);
  return state;
}

/** A card of this customer that is not deleted; as a parameter (400) or as the addressed object (404). */
function requireLiveCard(customer: ExistingCustomer, cardId: string, parameter?: string): SavedCard {
  const saved = customer.cards.find((candidate) => candidate.cardId === cardId && !candidate.deleted);
  if (saved) return saved;
  if (parameter)
    throw new InvalidRequestError(`Invalid parameter: ${parameter} '${cardId}' is not a card of this customer`);
  // A deleted card is still readable (deleted: true): changing it is a bad request, as for customers.
  if (customer.cards.some((candidate) => candidate.cardId === cardId))
    throw new InvalidRequestError(`Card '${cardId}' has been deleted`);
  throw new NotFoundError('Card', cardId);
}
