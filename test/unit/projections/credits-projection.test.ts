import { expect } from 'chai';
import type { CreditAttempt, CreditEvent } from '../../../packages/domain/credit/credit-events.ts';
import { creditsCollection, creditsProjection } from '../../../projections/credits-projection.ts';
import { cardSnapshot } from '../domain/card-snapshot-fixture.ts';
import { seconds } from './fixtures.ts';
import { inStream, projectionSpec, withoutInternals } from './projection-spec.ts';

const credit = inStream('credit-cred_1');
const at = '2026-02-03T10:00:00Z';
const attempt: CreditAttempt = {
  creditId: 'cred_1',
  amount: 500,
  currency: 'USD',
  description: 'Payout',
  customerId: 'cust_1',
  cardId: 'card_9',
  card: cardSnapshot,
  cardSource: { kind: 'details' },
  metadata: {},
};

describe('credits projection', () => {
  const spec = projectionSpec(creditsProjection);

  it('renders a successful credit; a card given as details belongs to no customer', async () => {
    await spec().given(credit<CreditEvent>({ type: 'CreditSucceeded', data: attempt }, at));
    const doc = (await spec().get(creditsCollection, 'cred_1'))!;
    expect(withoutInternals(doc)).to.deep.include({
      id: 'cred_1',
      created: seconds(at),
      objectType: 'credit',
      amount: 500,
      currency: 'USD',
      description: 'Payout',
      customerId: 'cust_1',
      status: 'successful',
      metadata: {},
      threeDSecureInfo: null,
    });
    expect(doc.card).to.include({ id: 'card_9', customerId: null });
    expect(doc).to.not.have.property('failureCode');
  });

  it("carries the 3-D Secure result of the card's token", async () => {
    const threeDSecureInfo = {
      amount: 500,
      currency: 'USD',
      enrolled: true,
      liabilityShift: 'successful' as const,
      authenticationFlow: 'frictionless' as const,
      version: '2.2.0',
    };
    await spec().given(
      credit<CreditEvent>({
        type: 'CreditSucceeded',
        data: { ...attempt, cardSource: { kind: 'token', tokenId: 'tok_1' }, threeDSecureInfo },
      }),
    );
    expect((await spec().get(creditsCollection, 'cred_1'))!.threeDSecureInfo).to.deep.equal(threeDSecureInfo);
  });

  it('renders a declined credit with the failure fields of a charge, and applies updates', async () => {
    await spec().given(
      credit<CreditEvent>({
        type: 'CreditFailed',
        data: {
          ...attempt,
          cardSource: null,
          failureCode: 'insufficient_funds',
          failureMessage: 'Insufficient funds.',
          blacklistRuleId: null,
          failureIssuerDeclineCode: null,
        },
      }),
    );
    await spec().given(
      credit<CreditEvent>({
        type: 'CreditUpdated',
        data: { creditId: 'cred_1', description: null, metadata: { a: 'b' } },
      }),
    );
    const doc = (await spec().get(creditsCollection, 'cred_1'))!;
    expect(doc).to.include({
      status: 'failed',
      failureCode: 'insufficient_funds',
      failureMessage: 'Insufficient funds.',
      failureIssuerDeclineCode: null,
      description: null,
    });
    expect(doc.metadata).to.deep.equal({ a: 'b' });
    expect(doc.card.customerId).to.equal('cust_1');
    await spec().expectRebuildIdentical();
  });
});
