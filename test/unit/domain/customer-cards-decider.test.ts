import { customerDecider, type NewCard } from '../../../packages/domain/customer/customer-decider.ts';
import type { CustomerEvent } from '../../../packages/domain/customer/customer-events.ts';
import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import { cardSnapshot } from './card-snapshot-fixture.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(customerDecider);
const created: CustomerEvent = {
  type: 'CustomerCreated',
  data: { customerId: 'cust_1', email: 'a@example.com', description: null, metadata: {} },
};
const newCard = (cardId: string): NewCard => ({ cardId, card: cardSnapshot, source: { kind: 'details' } });
const added = (cardId: string): CustomerEvent => ({
  type: 'CardAdded',
  data: { customerId: 'cust_1', cardId, card: cardSnapshot, source: { kind: 'details' }, merchantAccountId: null },
});
const defaultCard = (defaultCardId: string | null): CustomerEvent => ({
  type: 'DefaultCardChanged',
  data: { customerId: 'cust_1', defaultCardId },
});
const cardDeleted = (cardId: string): CustomerEvent => ({
  type: 'CardDeleted',
  data: { customerId: 'cust_1', cardId },
});
const customerDeleted: CustomerEvent = { type: 'CustomerDeleted', data: { customerId: 'cust_1' } };
/** A customer with card_1 then card_2, card_2 the default. */
const twoCards = [created, added('card_1'), defaultCard('card_1'), added('card_2'), defaultCard('card_2')];

describe('customer decider: cards', () => {
  describe('CreateCustomer and UpdateCustomer with a card', () => {
    it('saves a card given on create as the default', () => {
      spec([])
        .when({ type: 'CreateCustomer', customerId: 'cust_1', email: 'a@example.com', card: newCard('card_1') })
        .then([created, added('card_1'), defaultCard('card_1')]);
    });

    it('records the test clock of a customer living on one', () => {
      spec([])
        .when({ type: 'CreateCustomer', customerId: 'cust_1', email: 'a@example.com', testClockId: 'clock_1' })
        .then([{ type: 'CustomerCreated', data: { ...created.data, testClockId: 'clock_1' } } as CustomerEvent]);
    });

    it('saves a card given on update as the new default; defaultCardId is then ignored', () => {
      spec([created, added('card_1'), defaultCard('card_1')])
        .when({ type: 'UpdateCustomer', customerId: 'cust_1', card: newCard('card_2'), defaultCardId: 'card_1' })
        .then([added('card_2'), defaultCard('card_2')]);
      spec([created, added('card_1'), defaultCard('card_1')])
        .when({ type: 'UpdateCustomer', customerId: 'cust_1', card: newCard('card_1') })
        .thenThrows(InvalidRequestError, /already saved/);
    });

    it('switches the default to another live card; the same default again records nothing', () => {
      spec(twoCards)
        .when({ type: 'UpdateCustomer', customerId: 'cust_1', defaultCardId: 'card_1' })
        .then([defaultCard('card_1')]);
      spec(twoCards).when({ type: 'UpdateCustomer', customerId: 'cust_1', defaultCardId: 'card_2' }).then([]);
    });

    it('refuses as default a card that is not a live card of the customer (a bad parameter)', () => {
      spec(twoCards)
        .when({ type: 'UpdateCustomer', customerId: 'cust_1', defaultCardId: 'card_9' })
        .thenThrows(InvalidRequestError, /defaultCardId 'card_9' is not a card of this customer/);
      spec([...twoCards, cardDeleted('card_1')])
        .when({ type: 'UpdateCustomer', customerId: 'cust_1', defaultCardId: 'card_1' })
        .thenThrows(InvalidRequestError, /defaultCardId 'card_1'/);
    });
  });

  describe('AddCard', () => {
    it('saves a card as the new default, keeping where it came from', () => {
      spec([created])
        .when({
          type: 'AddCard',
          customerId: 'cust_1',
          cardId: 'card_1',
          card: cardSnapshot,
          source: { kind: 'token', tokenId: 'tok_1' },
          merchantAccountId: 'acct_m',
        })
        .then([
          {
            type: 'CardAdded',
            data: {
              customerId: 'cust_1',
              cardId: 'card_1',
              card: cardSnapshot,
              source: { kind: 'token', tokenId: 'tok_1' },
              merchantAccountId: 'acct_m',
            },
          },
          defaultCard('card_1'),
        ]);
    });

    it('refuses a card id already saved (even deleted), and unknown or deleted customers', () => {
      spec([...twoCards, cardDeleted('card_1')])
        .when({ type: 'AddCard', customerId: 'cust_1', ...newCard('card_1') })
        .thenThrows(InvalidRequestError, /already saved/);
      spec([])
        .when({ type: 'AddCard', customerId: 'cust_1', ...newCard('card_1') })
        .thenThrows(NotFoundError);
      spec([created, customerDeleted])
        .when({ type: 'AddCard', customerId: 'cust_1', ...newCard('card_1') })
        .thenThrows(InvalidRequestError, /has been deleted/);
    });
  });

  describe('UpdateCard', () => {
    it('records only the fields that change; the expiry as the client sent it', () => {
      spec(twoCards)
        .when({
          type: 'UpdateCard',
          customerId: 'cust_1',
          cardId: 'card_1',
          changes: { expMonth: '05', expYear: '2041', cardholderName: 'A. Buyer', addressLine1: undefined },
        })
        .then([
          {
            type: 'CardUpdated',
            data: { customerId: 'cust_1', cardId: 'card_1', expYear: '2041', cardholderName: 'A. Buyer' },
          },
        ]);
    });

    it('records nothing when nothing changes', () => {
      spec(twoCards)
        .when({
          type: 'UpdateCard',
          customerId: 'cust_1',
          cardId: 'card_1',
          changes: { expMonth: '05', addressZip: null },
        })
        .then([]);
      spec(twoCards).when({ type: 'UpdateCard', customerId: 'cust_1', cardId: 'card_1', changes: {} }).then([]);
    });

    it('always records a fast credit check, which is a fresh answer each time', () => {
      const fastCredit = { supported: true, updated: 1_767_225_600 };
      spec(twoCards)
        .when({ type: 'UpdateCard', customerId: 'cust_1', cardId: 'card_1', changes: { fastCredit } })
        .then([{ type: 'CardUpdated', data: { customerId: 'cust_1', cardId: 'card_1', fastCredit } }]);
    });

    it('refuses deleted and unknown cards, and cards of a deleted customer', () => {
      const update = { type: 'UpdateCard', customerId: 'cust_1', changes: { cardholderName: 'X' } } as const;
      spec([...twoCards, cardDeleted('card_1')])
        .when({ ...update, cardId: 'card_1' })
        .thenThrows(InvalidRequestError, /Card 'card_1' has been deleted/);
      spec(twoCards)
        .when({ ...update, cardId: 'card_9' })
        .thenThrows(NotFoundError);
      spec([...twoCards, customerDeleted])
        .when({ ...update, cardId: 'card_1' })
        .thenThrows(InvalidRequestError, /Customer 'cust_1' has been deleted/);
    });
  });

  describe('DeleteCard', () => {
    it('deletes a card that is not the default without touching the default', () => {
      spec(twoCards)
        .when({ type: 'DeleteCard', customerId: 'cust_1', cardId: 'card_1' })
        .then([cardDeleted('card_1')]);
    });

    it('makes the most recently added remaining card the default, or none', () => {
      spec(twoCards)
        .when({ type: 'DeleteCard', customerId: 'cust_1', cardId: 'card_2' })
        .then([cardDeleted('card_2'), defaultCard('card_1')]);
      spec([...twoCards, cardDeleted('card_1')])
        .when({ type: 'DeleteCard', customerId: 'cust_1', cardId: 'card_2' })
        .then([cardDeleted('card_2'), defaultCard(null)]);
    });

    it('deletes a card once, and refuses unknown cards', () => {
      spec([...twoCards, cardDeleted('card_1')])
        .when({ type: 'DeleteCard', customerId: 'cust_1', cardId: 'card_1' })
        .thenThrows(InvalidRequestError, /has been deleted/);
      spec(twoCards).when({ type: 'DeleteCard', customerId: 'cust_1', cardId: 'card_9' }).thenThrows(NotFoundError);
      spec([])
        .when({ type: 'DeleteCard', customerId: 'cust_1', cardId: 'card_1' })
        .thenThrows(NotFoundError, /Customer/);
    });
  });
});
