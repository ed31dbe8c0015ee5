import { expect } from 'chai';
import type { ChargeEvent } from '../../../packages/domain/charge/charge-events.ts';
import type { CreditEvent } from '../../../packages/domain/credit/credit-events.ts';
import { cardSnapshot } from '../domain/card-snapshot-fixture.ts';
import {
  networkOutcomesDueCollection,
  networkOutcomesDueProjection,
} from '../../../projections/network-outcomes-due-projection.ts';
import { chargeAttempt, chargeSucceeded } from './fixtures.ts';
import { inStream, projectionSpec } from './projection-spec.ts';

const charge = inStream('charge-char_1');
const announced = '2026-03-01T00:00:00.000Z';
const inTwoDays = '2026-03-03T00:00:00.000Z';
const dayMs = 86_400_000;

describe('network outcomes due projection', () => {
  const spec = projectionSpec(networkOutcomesDueProjection);

  it('lists each announced outcome, due after the network delay in real time, until it is delivered', async () => {
    const before = Date.now();
    await spec().given(
      charge(chargeSucceeded(), announced),
      charge<ChargeEvent>({
        type: 'NetworkOutcomesExpected',
        data: {
          chargeId: 'char_1',
          outcomes: [
            { kind: 'dispute', dueAt: inTwoDays, reason: 'FRAUDULENT' },
            { kind: 'fraud_warning', dueAt: inTwoDays, fraudDetails: { status: 'fraudulent', score: 90 } },
          ],
        },
      }),
    );
    const due = await spec().all(networkOutcomesDueCollection);
    expect(due.map((outcome) => outcome.id).sort()).to.deep.equal([
      'network-outcome:char_1:dispute',
      'network-outcome:char_1:fraud_warning',
    ]);
    for (const outcome of due) {
      expect(outcome.dueAtMs).to.be.within(before + 2 * dayMs, Date.now() + 2 * dayMs);
      expect(outcome).to.include({ chargeId: 'char_1', _accountId: 'acct_spec', _mode: 'test' });
    }
    await spec().given(
      charge<ChargeEvent>({
        type: 'DisputeOpened',
        data: {
          chargeId: 'char_1',
          disputeId: 'dp_1',
          amount: 1000,
          currency: 'EUR',
          reason: 'FRAUDULENT',
          status: 'CHARGEBACK_NEW',
        },
      }),
    );
    expect((await spec().all(networkOutcomesDueCollection)).map((outcome) => outcome.kind)).to.deep.equal([
      'fraud_warning',
    ]);
    await spec().given(
      charge<ChargeEvent>({
        type: 'FraudWarningReceived',
        data: {
          chargeId: 'char_1',
          fraudWarningId: 'fw_1',
          fraudDetails: { status: 'fraudulent', score: 90 },
          actionable: false,
        },
      }),
    );
    expect(await spec().all(networkOutcomesDueCollection)).to.deep.equal([]);
  });

  it('keeps the dispute decision due until the dispute is won or lost', async () => {
    await spec().given(
      charge(chargeSucceeded(), announced),
      charge<ChargeEvent>({
        type: 'NetworkOutcomesExpected',
        data: { chargeId: 'char_1', outcomes: [{ kind: 'dispute_decision', dueAt: inTwoDays, outcome: 'won' }] },
      }),
      charge<ChargeEvent>({
        type: 'DisputeEvidenceSubmitted',
        data: { chargeId: 'char_1', disputeId: 'dp_1', evidence: {} },
      }),
    );
    expect(await spec().all(networkOutcomesDueCollection)).to.have.length(1);
    await spec().given(
      charge<ChargeEvent>({
        type: 'DisputeWon',
        data: { chargeId: 'char_1', disputeId: 'dp_1', status: 'CHARGEBACK_REPRESENTED_SUCCESSFULLY' },
      }),
    );
    expect(await spec().all(networkOutcomesDueCollection)).to.deep.equal([]);
  });

  it('lists the lookup of a pending live charge until the lookup settles it', async () => {
    await spec().given(
      charge<ChargeEvent>(
        { type: 'CardChargePending', data: chargeAttempt({ networkTransactionId: null }) },
        announced,
      ),
      charge<ChargeEvent>({
        type: 'NetworkOutcomesExpected',
        data: { chargeId: 'char_1', outcomes: [{ kind: 'authorization', dueAt: announced }] },
      }),
    );
    const due = await spec().all(networkOutcomesDueCollection);
    expect(due.map((outcome) => [outcome.id, outcome.kind])).to.deep.equal([
      ['network-outcome:char_1:authorization', 'authorization'],
    ]);
    await spec().given(
      charge<ChargeEvent>({
        type: 'CardChargeSettled',
        data: { chargeId: 'char_1', networkTransactionId: 'char_p', processorId: 'proc_1', failure: null },
      }),
    );
    expect(await spec().all(networkOutcomesDueCollection)).to.deep.equal([]);
    await spec().expectRebuildIdentical();
  });

  it('lists the lookup of each live refund, announced with it, until the refund is settled', async () => {
    const refund = (refundId: string): ChargeEvent => ({
      type: 'RefundRequested',
      data: { chargeId: 'char_1', refundId, amount: 100, currency: 'EUR', reason: null, metadata: {} },
    });
    const lookup = (refundId: string): ChargeEvent => ({
      type: 'NetworkOutcomesExpected',
      data: { chargeId: 'char_1', outcomes: [{ kind: 'refund', dueAt: inTwoDays, refundId }] },
    });
    await spec().given(
      charge(chargeSucceeded(), announced),
      charge(refund('re_1'), announced),
      charge(lookup('re_1'), announced),
      charge(refund('re_2'), announced),
      charge(lookup('re_2'), announced),
    );
    const due = await spec().all(networkOutcomesDueCollection);
    expect(due.map((outcome) => [outcome.id, outcome.refundId]).sort()).to.deep.equal([
      ['network-outcome:char_1:refund:re_1', 're_1'],
      ['network-outcome:char_1:refund:re_2', 're_2'],
    ]);
    await spec().given(
      charge<ChargeEvent>({ type: 'RefundSettled', data: { chargeId: 'char_1', refundId: 're_1', status: 'failed' } }),
    );
    expect((await spec().all(networkOutcomesDueCollection)).map((outcome) => outcome.refundId)).to.deep.equal(['re_2']);
    await spec().expectRebuildIdentical();
  });

  it('lists the lookup of a pending live credit until the lookup settles it', async () => {
    const credit = inStream('credit-cr_1');
    await spec().given(
      credit<CreditEvent>(
        {
          type: 'CreditPending',
          data: {
            creditId: 'cr_1',
            amount: 750,
            currency: 'EUR',
            description: null,
            customerId: null,
            cardId: 'card_1',
            card: cardSnapshot,
            cardSource: { kind: 'details' },
            metadata: {},
            lookupDueAt: announced,
          },
        },
        announced,
      ),
    );
    expect((await spec().all(networkOutcomesDueCollection)).map((outcome) => [outcome.id, outcome.kind])).to.deep.equal(
      [['network-outcome:cr_1:credit', 'credit']],
    );
    await spec().given(credit<CreditEvent>({ type: 'CreditSettled', data: { creditId: 'cr_1', failure: null } }));
    expect(await spec().all(networkOutcomesDueCollection)).to.deep.equal([]);
  });
});
