import { chargeDecider } from '../../../packages/domain/charge/charge-decider.ts';
import type {
  AuthorizationAnswer,
  AuthorizationUnknown,
} from '../../../packages/domain/charge/charge-creation-decider.ts';
import type { ChargeAttempt, ChargeEvent, ChargeFailure } from '../../../packages/domain/charge/charge-events.ts';
import { InvalidRequestError } from '../../../packages/domain/errors.ts';
import { cardSnapshot } from './card-snapshot-fixture.ts';
import { acceptsEverything } from './charge-creation-fixture.ts';
import { deciderSpec } from './decider-spec.ts';
import { chargeAttempt } from '../projections/fixtures.ts';

const spec = deciderSpec(chargeDecider);

/** The charge as the handler hands it over: nothing answered yet. */
const attempt = chargeAttempt({
  amount: 2500,
  description: null,
  fraudDetails: { status: 'unknown', score: 0 },
  networkTransactionId: null,
});

const approved: AuthorizationAnswer = {
  answered: true,
  transactionId: 'sim_1',
  failure: null,
  avsResult: 'full_match',
  fraud: { status: 'safe', score: 3 },
  threeDSecureInfo: null,
  expectedOutcomes: [],
};
const declined: AuthorizationAnswer = {
  ...approved,
  transactionId: null,
  failure: { code: 'card_declined', message: 'The card was declined.', issuerDeclineCode: 'do_not_honor' },
};

const create = (options: {
  accepted?: { acceptedCurrencies: string[] | null; acceptedBrands: ChargeAttempt['card']['brand'][] | null };
  blacklistRule?: { ruleId: string } | null;
  authorization: AuthorizationAnswer | AuthorizationUnknown | null;
}) =>
  ({
    type: 'CreateCharge',
    attempt,
    accepted: options.accepted ?? acceptsEverything,
    blacklistRule: options.blacklistRule ?? null,
    authorization: options.authorization,
  }) as const;

const failedWith = (failure: ChargeFailure & Partial<ChargeAttempt>): ChargeEvent => ({
  type: 'ChargeFailed',
  data: { ...attempt, ...failure },
});

describe('charge decider: creating a card charge', () => {
  it('refuses a currency the account does not accept, before the network', () => {
    spec([])
      .when(create({ accepted: { acceptedCurrencies: ['USD'], acceptedBrands: null }, authorization: null }))
      .then([
        failedWith({
          failureCode: 'currency_not_supported',
          failureMessage: 'The account is not configured for the currency EUR.',
          failureIssuerDeclineCode: null,
          blacklistRuleId: null,
        }),
      ]);
  });

  it('refuses a card brand the account does not accept, before the network', () => {
    spec([])
      .when(create({ accepted: { acceptedCurrencies: ['EUR'], acceptedBrands: ['MasterCard'] }, authorization: null }))
      .then([
        failedWith({
          failureCode: 'brand_not_supported',
          failureMessage: 'The card brand Visa is not supported by the account.',
          failureIssuerDeclineCode: null,
          blacklistRuleId: null,
        }),
      ]);
  });

  it('blocks a charge a blacklist rule matched, naming the rule', () => {
    spec([])
      .when(create({ blacklistRule: { ruleId: 'blr_1' }, authorization: null }))
      .then([
        failedWith({
          failureCode: 'blacklisted',
          failureMessage: 'The charge was blocked by a blacklist rule.',
          failureIssuerDeclineCode: null,
          blacklistRuleId: 'blr_1',
        }),
      ]);
  });

  it("refuses by the account's settings first, also when a blacklist rule matched", () => {
    spec([])
      .when(
        create({
          accepted: { acceptedCurrencies: ['USD'], acceptedBrands: null },
          blacklistRule: { ruleId: 'blr_1' },
          authorization: approved,
        }),
      )
      .then([
        failedWith({
          failureCode: 'currency_not_supported',
          failureMessage: 'The account is not configured for the currency EUR.',
          failureIssuerDeclineCode: null,
          blacklistRuleId: null,
        }),
      ]);
  });

  it("records the network's decline with what the network found, and no announced outcome", () => {
    spec([])
      .when(
        create({
          authorization: {
            ...declined,
            expectedOutcomes: [{ kind: 'dispute', dueAt: '2026-01-01T00:00:02.000Z', reason: 'FRAUDULENT' }],
          },
        }),
      )
      .then([
        failedWith({
          avsCheck: { result: 'full_match' },
          fraudDetails: { status: 'safe', score: 3 },
          failureCode: 'card_declined',
          failureMessage: 'The card was declined.',
          failureIssuerDeclineCode: 'do_not_honor',
          blacklistRuleId: null,
        }),
      ]);
  });

  it('records a charge the network took, with its reference, checks and the outcomes it announced', () => {
    const disputeDue = { kind: 'dispute', dueAt: '2026-01-01T00:00:02.000Z', reason: 'FRAUDULENT' } as const;
    const taken: ChargeAttempt = {
      ...attempt,
      processorId: 'proc_1',
      avsCheck: { result: 'full_match' },
      fraudDetails: { status: 'safe', score: 3 },
      networkTransactionId: 'sim_1',
    };
    spec([])
      .when(create({ authorization: { ...approved, processorId: 'proc_1', expectedOutcomes: [disputeDue] } }))
      .then([
        { type: 'ChargeSucceeded', data: taken },
        { type: 'NetworkOutcomesExpected', data: { chargeId: 'char_1', outcomes: [disputeDue] } },
      ]);
  });

  it("records the card with the BIN data a live processor's answer gives, over the table's", () => {
    const bin = { brand: 'MasterCard', type: 'Debit Card', country: 'PL', issuer: 'Bank Polski' } as const;
    spec([])
      .when(create({ authorization: { ...approved, processorId: 'proc_1', card: bin } }))
      .then([
        {
          type: 'ChargeSucceeded',
          data: {
            ...attempt,
            card: { ...cardSnapshot, ...bin },
            processorId: 'proc_1',
            avsCheck: { result: 'full_match' },
            fraudDetails: { status: 'safe', score: 3 },
            networkTransactionId: 'sim_1',
          },
        },
      ]);
  });

  it("keeps the table's BIN data where the processor's answer gives none, also on a decline", () => {
    spec([])
      .when(create({ authorization: { ...declined, card: null } }))
      .then([
        failedWith({
          card: cardSnapshot,
          avsCheck: { result: 'full_match' },
          fraudDetails: { status: 'safe', score: 3 },
          failureCode: 'card_declined',
          failureMessage: 'The card was declined.',
          failureIssuerDeclineCode: 'do_not_honor',
          blacklistRuleId: null,
        }),
      ]);
  });

  it("records a live charge whose processor's answer is unknown as pending, with its lookup due", () => {
    spec([])
      .when(
        create({ authorization: { answered: false, processorId: 'proc_1', lookupDueAt: '2026-01-01T00:00:00.000Z' } }),
      )
      .then([
        { type: 'CardChargePending', data: { ...attempt, processorId: 'proc_1' } },
        {
          type: 'NetworkOutcomesExpected',
          data: { chargeId: 'char_1', outcomes: [{ kind: 'authorization', dueAt: '2026-01-01T00:00:00.000Z' }] },
        },
      ]);
  });

  it('records a charge id once', () => {
    spec([{ type: 'ChargeSucceeded', data: attempt }])
      .when(create({ authorization: approved }))
      .thenThrows(InvalidRequestError, /already exists/);
  });

  it('refuses to decide a charge neither refused nor answered by the network', () => {
    spec([])
      .when(create({ authorization: null }))
      .thenThrows(Error, /neither refused nor authorized/);
  });
});
