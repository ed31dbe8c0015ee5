import type { CardSnapshot } from '../../../packages/domain/card/card-snapshot.ts';
import { creditDecider } from '../../../packages/domain/credit/credit-decider.ts';
import type { CreditAttempt, CreditEvent, CreditFailure } from '../../../packages/domain/credit/credit-events.ts';
import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import { cardSnapshot } from './card-snapshot-fixture.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(creditDecider);

const card: CardSnapshot = { ...cardSnapshot, expMonth: '12', expYear: '2040' };

const attempt: CreditAttempt = {
  creditId: 'cr_1',
  amount: 1500,
  currency: 'EUR',
  description: 'Payout',
  customerId: null,
  cardId: 'card_1',
  card,
  cardSource: { kind: 'details' },
  metadata: { batch: '7' },
};

const failure: CreditFailure = {
  failureCode: 'card_declined',
  failureMessage: 'The card was declined.',
  failureIssuerDeclineCode: null,
  blacklistRuleId: null,
};
const succeeded: CreditEvent = { type: 'CreditSucceeded', data: attempt };
const failed: CreditEvent = { type: 'CreditFailed', data: { ...attempt, ...failure } };

describe('credit decider', () => {
  it('records a credit the network approved as succeeded', () => {
    spec([]).when({ type: 'RecordCredit', attempt, failure: null }).then([succeeded]);
  });

  it('records a declined credit as failed, with the failure fields', () => {
    spec([]).when({ type: 'RecordCredit', attempt, failure }).then([failed]);
  });

  it('refuses to record the same credit twice', () => {
    spec([succeeded])
      .when({ type: 'RecordCredit', attempt, failure: null })
      .thenThrows(InvalidRequestError, /already exists/);
  });

  it('records only the fields that change on update', () => {
    spec([succeeded])
      .when({ type: 'UpdateCredit', creditId: 'cr_1', description: 'Refund of order 12', metadata: { batch: '7' } })
      .then([{ type: 'CreditUpdated', data: { creditId: 'cr_1', description: 'Refund of order 12' } }]);
  });

  it('replaces metadata as a whole, also on a failed credit', () => {
    spec([failed])
      .when({ type: 'UpdateCredit', creditId: 'cr_1', metadata: {} })
      .then([{ type: 'CreditUpdated', data: { creditId: 'cr_1', metadata: {} } }]);
  });

  it('records nothing for an update that changes nothing', () => {
    spec([succeeded])
      .when({ type: 'UpdateCredit', creditId: 'cr_1', description: 'Payout', metadata: { batch: '7' } })
      .then([]);
  });

  it('sees an earlier update when deciding the next one', () => {
    const updated: CreditEvent = { type: 'CreditUpdated', data: { creditId: 'cr_1', description: null } };
    spec([succeeded, updated]).when({ type: 'UpdateCredit', creditId: 'cr_1', description: null }).then([]);
  });

  it('does not update a credit that does not exist', () => {
    spec([]).when({ type: 'UpdateCredit', creditId: 'cr_1', description: 'x' }).thenThrows(NotFoundError);
  });
});
