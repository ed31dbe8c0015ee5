import { expect } from 'chai';
import type { ChargeEvent } from '../../../packages/domain/charge/charge-events.ts';
import { chargesCollection, chargesProjection } from '../../../projections/charges-projection.ts';
import { chargeAttempt, chargeSucceeded, seconds } from './fixtures.ts';
import { inStream, projectionSpec, withoutInternals } from './projection-spec.ts';

const charge = inStream('charge-char_1');
const at = '2026-02-01T09:30:00Z';

describe('charges projection', () => {
  const spec = projectionSpec(chargesProjection);

  it('renders a successful charge with its card, as GET /charges/{id} shows it', async () => {
    await spec().given(charge(chargeSucceeded({ customerId: 'cust_1', metadata: { order: '1' } }), at));
    const doc = await spec().get(chargesCollection, 'char_1');
    expect(withoutInternals(doc!)).to.deep.include({
      id: 'char_1',
      created: seconds(at),
      objectType: 'charge',
      amount: 1000,
      currency: 'EUR',
      description: 'Order 1',
      status: 'successful',
      customerId: 'cust_1',
      subscriptionId: null,
      captured: true,
      refunded: false,
      refunds: [],
      disputed: false,
      fraudDetails: { status: 'safe', score: 1 },
      shipping: null,
      billing: null,
      threeDSecureInfo: null,
      avsCheck: null,
      merchantAccountId: null,
      metadata: { order: '1' },
    });
    expect(doc!.card).to.include({ id: 'card_1', objectType: 'card', last4: '4242', customerId: 'cust_1' });
    expect(doc).to.not.have.property('type');
    expect(doc).to.not.have.property('failureCode');
  });

  it('shows where a cross-sale charge came from, and the cross-sale charges listed on a main charge', async () => {
    const crossSale = {
      offerId: 'cso_1',
      merchantAccountId: 'acct_m',
      merchantChargeId: 'char_m',
      merchantSubscriptionId: null,
    };
    await spec().given(charge(chargeSucceeded({ crossSale }), at));
    expect((await spec().get(chargesCollection, 'char_1'))!.crossSale).to.deep.equal(crossSale);
    const crossSaleCharge = { accountId: 'acct_owner', chargeId: 'char_owner1', offerId: 'cso_1' };
    await spec().given(
      charge<ChargeEvent>({ type: 'CrossSaleChargeAdded', data: { chargeId: 'char_1', crossSaleCharge } }),
    );
    expect((await spec().get(chargesCollection, 'char_1'))!.crossSaleCharges).to.deep.equal([crossSaleCharge]);
    await spec().expectRebuildIdentical();
  });

  it('renders a declined charge with its failure', async () => {
    await spec().given(
      charge<ChargeEvent>({
        type: 'ChargeFailed',
        data: {
          ...chargeAttempt({ captured: true }),
          failureCode: 'card_declined',
          failureMessage: 'The card was declined.',
          failureIssuerDeclineCode: 'do_not_honor',
          blacklistRuleId: null,
        },
      }),
    );
    expect(await spec().get(chargesCollection, 'char_1')).to.include({
      status: 'failed',
      captured: false,
      failureCode: 'card_declined',
      failureMessage: 'The card was declined.',
      failureIssuerDeclineCode: 'do_not_honor',
    });
  });

  it('captures, refunds in part then in full, and shows each refund once however often a batch arrives', async () => {
    await spec().given(charge(chargeSucceeded({ captured: false })));
    await spec().given(
      charge<ChargeEvent>({ type: 'ChargeCaptured', data: { chargeId: 'char_1', amount: 1000 } }),
      charge<ChargeEvent>({
        type: 'RefundRequested',
        data: { chargeId: 'char_1', refundId: 're_1', amount: 400, currency: 'EUR', reason: null, metadata: {} },
      }),
      charge<ChargeEvent>({
        type: 'RefundSettled',
        data: { chargeId: 'char_1', refundId: 're_1', status: 'successful' },
      }),
    );
    let doc = await spec().get(chargesCollection, 'char_1');
    expect(doc).to.include({ captured: true, refunded: false });
    expect(doc!.refunds.map((refund) => [refund.id, refund.status, refund.amount])).to.deep.equal([
      ['re_1', 'successful', 400],
    ]);
    expect(doc!.refunds[0]).to.not.have.property('_accountId');

    await spec().given(
      charge<ChargeEvent>({
        type: 'RefundRequested',
        data: {
          chargeId: 'char_1',
          refundId: 're_2',
          amount: 600,
          currency: 'EUR',
          reason: 'fraudulent',
          metadata: {},
        },
      }),
      charge<ChargeEvent>({
        type: 'RefundSettled',
        data: { chargeId: 'char_1', refundId: 're_2', status: 'successful' },
      }),
      charge<ChargeEvent>({
        type: 'RefundUpdated',
        data: { chargeId: 'char_1', refundId: 're_2', metadata: { a: 'b' } },
      }),
    );
    doc = await spec().get(chargesCollection, 'char_1');
    expect(doc).to.include({ refunded: true });
    expect(doc!.refunds.map((refund) => refund.id)).to.deep.equal(['re_1', 're_2']);
    expect(doc!.refunds[1])
      .to.include({ reason: 'fraudulent' })
      .and.deep.include({ metadata: { a: 'b' } });
    await spec().expectRebuildIdentical();
  });

  it('updates the fields given, and moves the card to the customer it is assigned to', async () => {
    await spec().given(charge(chargeSucceeded()));
    await spec().given(
      charge<ChargeEvent>({
        type: 'ChargeUpdated',
        data: { chargeId: 'char_1', customerId: 'cust_2', description: null, metadata: { k: 'v' } },
      }),
    );
    const doc = await spec().get(chargesCollection, 'char_1');
    expect(doc)
      .to.include({ customerId: 'cust_2', description: null })
      .and.deep.include({ metadata: { k: 'v' } });
    expect(doc!.card!.customerId).to.equal('cust_2');
  });

  it('embeds its dispute and takes the fraud warning verdict; announced outcomes change nothing', async () => {
    await spec().given(charge(chargeSucceeded()));
    await spec().given(
      charge<ChargeEvent>({
        type: 'NetworkOutcomesExpected',
        data: {
          chargeId: 'char_1',
          outcomes: [{ kind: 'dispute', dueAt: '2026-03-01T00:00:00Z', reason: 'FRAUDULENT' }],
        },
      }),
    );
    expect(await spec().get(chargesCollection, 'char_1')).to.include({ disputed: false });
    await spec().given(
      charge<ChargeEvent>(
        {
          type: 'DisputeOpened',
          data: {
            chargeId: 'char_1',
            disputeId: 'dp_1',
            amount: 1000,
            currency: 'EUR',
            reason: 'FRAUDULENT',
            status: 'CHARGEBACK_NEW',
          },
        },
        '2026-03-01T00:00:00Z',
      ),
      charge<ChargeEvent>({
        type: 'FraudWarningReceived',
        data: {
          chargeId: 'char_1',
          fraudWarningId: 'fw_1',
          fraudDetails: { status: 'fraudulent', score: 99 },
          actionable: false,
        },
      }),
    );
    const doc = await spec().get(chargesCollection, 'char_1');
    expect(doc)
      .to.include({ disputed: true })
      .and.deep.include({ fraudDetails: { status: 'fraudulent', score: 99 } });
    expect(doc!.dispute).to.include({ id: 'dp_1', status: 'CHARGEBACK_NEW', reason: 'FRAUDULENT', amount: 1000 });
    expect(doc!.dispute).to.not.have.property('charge');
    expect(doc!.dispute).to.not.have.property('_accountId');
    await spec().given(
      charge<ChargeEvent>({
        type: 'DisputeLost',
        data: {
          chargeId: 'char_1',
          disputeId: 'dp_1',
          status: 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY',
          acceptedAsLost: true,
        },
      }),
    );
    expect((await spec().get(chargesCollection, 'char_1'))!.dispute).to.include({
      status: 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY',
      acceptedAsLost: true,
    });
    await spec().expectRebuildIdentical();
  });

  it('shows a live charge pending while its processor answer is unknown, then as the lookup settled it', async () => {
    const pending = inStream('charge-char_1');
    await spec().given(
      pending<ChargeEvent>(
        {
          type: 'CardChargePending',
          data: chargeAttempt({ captured: false, networkTransactionId: null, processorId: 'proc_1' }),
        },
        at,
      ),
    );
    let doc = await spec().get(chargesCollection, 'char_1');
    expect(withoutInternals(doc!)).to.include({ status: 'pending', captured: false });
    expect(doc).to.not.have.property('processorId');
    await spec().given(
      pending<ChargeEvent>({
        type: 'CardChargeSettled',
        data: { chargeId: 'char_1', networkTransactionId: 'char_atProcessor', processorId: 'proc_1', failure: null },
      }),
    );
    doc = await spec().get(chargesCollection, 'char_1');
    expect(withoutInternals(doc!)).to.include({ status: 'successful', captured: false });
    await spec().expectRebuildIdentical();
  });

  it('shows a pending live charge failed with the decline the lookup found', async () => {
    await spec().given(
      charge<ChargeEvent>({ type: 'CardChargePending', data: chargeAttempt({ networkTransactionId: null }) }, at),
      charge<ChargeEvent>({
        type: 'CardChargeSettled',
        data: {
          chargeId: 'char_1',
          networkTransactionId: 'char_atProcessor',
          processorId: 'proc_1',
          failure: {
            failureCode: 'insufficient_funds',
            failureMessage: 'The card has insufficient funds to complete the purchase.',
            failureIssuerDeclineCode: '51',
            blacklistRuleId: null,
          },
        },
      }),
    );
    const doc = await spec().get(chargesCollection, 'char_1');
    expect(withoutInternals(doc!)).to.include({
      status: 'failed',
      captured: false,
      failureCode: 'insufficient_funds',
      failureIssuerDeclineCode: '51',
    });
    await spec().expectRebuildIdentical();
  });
});
