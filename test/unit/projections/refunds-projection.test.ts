import { expect } from 'chai';
import type { ChargeEvent } from '../../../packages/domain/charge/charge-events.ts';
import { refundsCollection, refundsProjection } from '../../../projections/refunds-projection.ts';
import { chargeSucceeded, seconds } from './fixtures.ts';
import { inStream, projectionSpec, withoutInternals } from './projection-spec.ts';

const charge = inStream('charge-char_1');
const at = '2026-02-02T12:00:00Z';

describe('refunds projection', () => {
  const spec = projectionSpec(refundsProjection);

  it('renders a refund pending until the network settles it, then with its metadata changes', async () => {
    await spec().given(charge(chargeSucceeded()));
    await spec().given(
      charge<ChargeEvent>(
        {
          type: 'RefundRequested',
          data: { chargeId: 'char_1', refundId: 're_1', amount: 300, currency: 'EUR', reason: null, metadata: {} },
        },
        at,
      ),
    );
    expect(withoutInternals((await spec().get(refundsCollection, 're_1'))!)).to.deep.equal({
      id: 're_1',
      created: seconds(at),
      objectType: 'refund',
      amount: 300,
      currency: 'EUR',
      charge: 'char_1',
      reason: null,
      status: 'pending',
      metadata: {},
    });
    await spec().given(
      charge<ChargeEvent>({ type: 'RefundSettled', data: { chargeId: 'char_1', refundId: 're_1', status: 'failed' } }),
      charge<ChargeEvent>({
        type: 'RefundUpdated',
        data: { chargeId: 'char_1', refundId: 're_1', metadata: { why: 'x' } },
      }),
    );
    const doc = (await spec().get(refundsCollection, 're_1'))!;
    expect(doc.status).to.equal('failed');
    expect(doc.metadata).to.deep.equal({ why: 'x' });
    expect(await spec().all(refundsCollection)).to.have.length(1);
    await spec().expectRebuildIdentical();
  });
});
