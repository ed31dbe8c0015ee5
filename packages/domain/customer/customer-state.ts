import type { CardSnapshot } from '../card/card-snapshot.ts';
import type { Metadata } from '../metadata.ts';
import type { CardSource, CustomerEvent } from './customer-events.ts';

export interface SavedCard {
  cardId: string;
  card: CardSnapshot;
  /** Where the card came from (a token, card details, a charge). */
  source: CardSource;
  deleted: boolean;
}

export type CustomerState =
  | { status: 'none' }
  | {
      status: 'active' | 'deleted';
      customerId: string;
      email: string;
      description: string | null;
      metadata: Metadata;
      /** Every card ever added, oldest first. */
      cards: SavedCard[];
      defaultCardId: string | null;
      testClockId?: string;
    };

export const initialCustomerState = (): CustomerState => ({ status: 'none' });

export function evolveCustomer(state: CustomerState, event: CustomerEvent): CustomerState {
  if (event.type === 'CustomerCreated') return { status: 'active', ...event.data, cards: [], defaultCardId: null };
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'CustomerUpdated': {
      const { customerId: _id, ...changes } = event.data;
      return { ...state, ...changes };
    }
    case 'CustomerDeleted':
      return { ...state, status: 'deleted' };
    case 'CardAdded':
      return {
        ...state,
        cards: [
          ...state.cards,
          { cardId: event.data.cardId, card: event.data.card, source: event.data.source, deleted: false },
        ],
      };
    case 'CardUpdated': {
      const { customerId: _c, cardId, fastCredit: _f, ...changes } = event.data;
      return {
        ...state,
        cards: state.cards.map((saved) =>
          saved.cardId === cardId ? { ...saved, card: { ...saved.card, ...changes } } : saved,
        ),
      };
    }
    case 'CardDeleted':
      return {
        ...state,
        cards: state.cards.map((saved) => (saved.cardId === event.data.cardId ? { ...saved, deleted: true } : saved)),
      };
    case 'DefaultCardChanged':
      return { ...state, defaultCardId: event.data.defaultCardId };
  }
}

export const liveCards = (state: Extract<CustomerState, { cards: SavedCard[] }>): SavedCard[] =>
  state.cards.filter((saved) => !saved.deleted);
