import { expect } from 'chai';
import type { ChargeEvent } from '../../../packages/domain/charge/charge-events.ts';
import { disputesCollection, disputesProjection } from '../../../projections/disputes-projection.ts';
import { chargeSucceeded, seconds } from './fixtures.ts';
import { inStream, projectionSpec, withoutInternals } from './projection-spec.ts';

const charge = inStream('charge-char_1');
const opened = '2026-03-01T00:00:00Z';
const contested = '2026-03-03T00:00:00Z';
const decided = '2026-03-10T00:00:00Z';

describe('disputes projection', () => {
  const spec = projectionSpec(disputesProjection);

  it('renders a dispute through evidence and decision, with `updated` following each change', async () => {
    await spec().given(
      charge(chargeSucceeded()),
      charge<ChargeEvent>(
        {
          type: 'DisputeOpened',
          data: {
            chargeId: 'char_1',
            disputeId: 'dp_1',
            amount: 1000,
            currency: 'EUR',
            reason: 'UNRECOGNIZED',
            status: 'CHARGEBACK_NEW',
          },
        },
        opened,
      ),
    );
    expect(withoutInternals((await spec().get(disputesCollection, 'dp_1'))!)).to.deep.equal({
      id: 'dp_1',
      created: seconds(opened),
      objectType: 'dispute',
      updated: seconds(opened),
      amount: 1000,
      currency: 'EUR',
      status: 'CHARGEBACK_NEW',
      reason: 'UNRECOGNIZED',
      acceptedAsLost: false,
      evidence: null,
      evidenceDetails: { hasEvidence: false, submissionCount: 0 },
      charge: 'char_1',
    });
    await spec().given(
      charge<ChargeEvent>(
        {
          type: 'DisputeEvidenceSubmitted',
          data: { chargeId: 'char_1', disputeId: 'dp_1', evidence: { customerName: 'Ann' } },
        },
        contested,
      ),
      charge<ChargeEvent>(
        {
          type: 'DisputeWon',
          data: { chargeId: 'char_1', disputeId: 'dp_1', status: 'CHARGEBACK_REPRESENTED_SUCCESSFULLY' },
        },
        decided,
      ),
    );
    const doc = (await spec().get(disputesCollection, 'dp_1'))!;
    expect(doc).to.include({
      status: 'CHARGEBACK_REPRESENTED_SUCCESSFULLY',
      updated: seconds(decided),
      created: seconds(opened),
    });
    expect(doc.evidence).to.deep.equal({ customerName: 'Ann' });
    expect(doc.evidenceDetails).to.deep.equal({ hasEvidence: true, submissionCount: 1 });
    await spec().expectRebuildIdentical();
  });

  it('makes no dispute of a charge that has none', async () => {
    await spec().given(charge(chargeSucceeded()));
    expect(await spec().all(disputesCollection)).to.deep.equal([]);
  });
});
