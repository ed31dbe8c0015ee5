import { CardError, InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import { tokenDecider } from '../../../packages/domain/token/token-decider.ts';
import type { TokenEvent } from '../../../packages/domain/token/token-events.ts';
import { cardSnapshot } from './card-snapshot-fixture.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(tokenDecider);
const expiresAt = '2026-01-01T00:15:00.000Z';
const created: TokenEvent = { type: 'TokenCreated', data: { tokenId: 'tok_1', card: cardSnapshot, expiresAt } };
const usedForCharge: TokenEvent = {
  type: 'TokenUsed',
  data: { tokenId: 'tok_1', use: { kind: 'charge', chargeId: 'char_1' } },
};
const cardCreated: TokenEvent = {
  type: 'TokenCardCreated',
  data: { tokenId: 'tok_1', customerId: 'cust_1', cardId: 'card_1' },
};
const beforeExpiry = new Date('2026-01-01T00:10:00.000Z');

describe('token decider', () => {
  describe('CreateToken', () => {
    it('records the card and when the token expires, once', () => {
      spec([])
        .when({ type: 'CreateToken', tokenId: 'tok_1', card: cardSnapshot, expiresAt: new Date(expiresAt) })
        .then([created]);
      spec([created])
        .when({ type: 'CreateToken', tokenId: 'tok_1', card: cardSnapshot, expiresAt: new Date(expiresAt) })
        .thenThrows(InvalidRequestError, /already exists/);
    });
  });

  describe('UseToken', () => {
    it('is used once, for a charge, a card or a credit', () => {
      spec([created])
        .when({ type: 'UseToken', tokenId: 'tok_1', use: { kind: 'charge', chargeId: 'char_1' }, now: beforeExpiry })
        .then([usedForCharge]);
      spec([created])
        .when({ type: 'UseToken', tokenId: 'tok_1', use: { kind: 'credit', creditId: 'cr_1' }, now: beforeExpiry })
        .then([{ type: 'TokenUsed', data: { tokenId: 'tok_1', use: { kind: 'credit', creditId: 'cr_1' } } }]);
      spec([created, usedForCharge])
        .when({
          type: 'UseToken',
          tokenId: 'tok_1',
          use: { kind: 'card', customerId: 'cust_1', cardId: 'card_1' },
          now: beforeExpiry,
        })
        .thenThrows(InvalidRequestError, /already been used/);
    });

    it('can be used up to its expiry, and is a card error after it', () => {
      const use = { type: 'UseToken', tokenId: 'tok_1', use: { kind: 'charge', chargeId: 'char_1' } } as const;
      spec([created])
        .when({ ...use, now: new Date(expiresAt) })
        .then([usedForCharge]);
      spec([created])
        .when({ ...use, now: new Date(Date.parse(expiresAt) + 1) })
        .thenThrows(CardError, /expired/);
    });

    it('names an unknown token as a bad parameter, not a missing resource', () => {
      spec([])
        .when({ type: 'UseToken', tokenId: 'tok_9', use: { kind: 'charge', chargeId: 'char_1' }, now: beforeExpiry })
        .thenThrows(InvalidRequestError, /token 'tok_9' does not exist/);
    });
  });

  describe('RecordTokenCard', () => {
    it('records the saved card of a used token once; nothing happens the second time', () => {
      spec([created, usedForCharge])
        .when({ type: 'RecordTokenCard', tokenId: 'tok_1', customerId: 'cust_1', cardId: 'card_1' })
        .then([cardCreated]);
      spec([created, usedForCharge, cardCreated])
        .when({ type: 'RecordTokenCard', tokenId: 'tok_1', customerId: 'cust_1', cardId: 'card_1' })
        .then([]);
      spec([created, usedForCharge, cardCreated])
        .when({ type: 'RecordTokenCard', tokenId: 'tok_1', customerId: 'cust_2', cardId: 'card_2' })
        .then([]);
    });

    it('refuses an unknown token', () => {
      spec([])
        .when({ type: 'RecordTokenCard', tokenId: 'tok_1', customerId: 'cust_1', cardId: 'card_1' })
        .thenThrows(NotFoundError);
    });
  });
});
