import type { CardSnapshot } from '../../../packages/domain/card/card-snapshot.ts';
import { creditDecider, type CreateCreditCommand } from '../../../packages/domain/credit/credit-decider.ts';
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
const networkDecline = { code: 'card_declined', message: 'The card was declined.', issuerDeclineCode: null } as const;
const create = (transfer: CreateCreditCommand['transfer'], blacklistRule: { ruleId: string } | null = null) =>
  ({ type: 'CreateCredit', attempt, blacklistRule, transfer }) as const;
const succeeded: CreditEvent = { type: 'CreditSucceeded', data: attempt };
const failed: CreditEvent = { type: 'CreditFailed', data: { ...attempt, ...failure } };
const pending: CreditEvent = { type: 'CreditPending', data: { ...attempt, lookupDueAt: '2026-01-01T00:00:00.000Z' } };

describe('credit decider', () => {
  it('records a credit the network approved as succeeded', () => {
    spec([])
      .when(create({ failure: null }))
      .then([succeeded]);
  });

  it('records a declined credit as failed, with the failure fields', () => {
    spec([])
      .when(create({ failure: networkDecline }))
      .then([failed]);
  });

  it('records a credit a blacklist rule blocked as failed, without the network', () => {
    spec([])
      .when(create(null, { ruleId: 'blr_1' }))
      .then([
        {
          type: 'CreditFailed',
          data: {
            ...attempt,
            failureCode: 'blacklisted',
            failureMessage: 'The credit was blocked by a blacklist rule.',
            failureIssuerDeclineCode: null,
            blacklistRuleId: 'blr_1',
          },
        },
      ]);
  });

  it('lets a matching blacklist rule win over an approval', () => {
    spec([])
      .when(create({ failure: null }, { ruleId: 'blr_1' }))
      .then([
        {
          type: 'CreditFailed',
          data: {
            ...attempt,
            failureCode: 'blacklisted',
            failureMessage: 'The credit was blocked by a blacklist rule.',
            failureIssuerDeclineCode: null,
            blacklistRuleId: 'blr_1',
          },
        },
      ]);
  });

  it("records a live credit whose processor's answer is unknown as pending, with its lookup due", () => {
    spec([])
      .when(create({ answered: false, lookupDueAt: '2026-01-01T00:00:00.000Z' }))
      .then([{ type: 'CreditPending', data: { ...attempt, lookupDueAt: '2026-01-01T00:00:00.000Z' } }]);
  });

  it('blocks a credit a blacklist rule matched, even when the processor never answered', () => {
    spec([])
      .when(create({ answered: false, lookupDueAt: '2026-01-01T00:00:00.000Z' }, { ruleId: 'blr_1' }))
      .then([
        {
          type: 'CreditFailed',
          data: {
            ...attempt,
            failureCode: 'blacklisted',
            failureMessage: 'The credit was blocked by a blacklist rule.',
            failureIssuerDeclineCode: null,
            blacklistRuleId: 'blr_1',
          },
        },
      ]);
  });

  it('refuses to decide a credit neither blocked nor sent', () => {
    spec([])
      .when(create(null))
      .thenThrows(Error, /neither blocked nor sent/);
  });

  it('settles a pending credit as the lookup found it: sent, or failed with why', () => {
    spec([pending])
      .when({ type: 'SettleCredit', creditId: 'cr_1', failure: null })
      .then([{ type: 'CreditSettled', data: { creditId: 'cr_1', failure: null } }]);
    spec([pending])
      .when({ type: 'SettleCredit', creditId: 'cr_1', failure })
      .then([{ type: 'CreditSettled', data: { creditId: 'cr_1', failure } }]);
  });

  it('records nothing when a settled credit is settled again', () => {
    const settled: CreditEvent = { type: 'CreditSettled', data: { creditId: 'cr_1', failure: null } };
    spec([pending, settled]).when({ type: 'SettleCredit', creditId: 'cr_1', failure }).then([]);
    spec([succeeded]).when({ type: 'SettleCredit', creditId: 'cr_1', failure: null }).then([]);
  });

  it('does not settle a credit that does not exist', () => {
    spec([]).when({ type: 'SettleCredit', creditId: 'cr_1', failure: null }).thenThrows(NotFoundError);
  });

  it('refuses to record a pending credit again', () => {
    spec([pending])
      .when(create({ failure: null }))
      .thenThrows(InvalidRequestError, /already exists/);
  });

  it('refuses to record the same credit twice', () => {
    spec([succeeded])
      .when(create({ failure: null }))
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
