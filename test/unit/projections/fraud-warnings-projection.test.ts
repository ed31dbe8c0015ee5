import { expect } from 'chai';
import type { ChargeEvent } from '../../../packages/domain/charge/charge-events.ts';
import { fraudWarningsCollection, fraudWarningsProjection } from '../../../projections/fraud-warnings-projection.ts';
import { chargeSucceeded, seconds } from './fixtures.ts';
import { inStream, projectionSpec, withoutInternals } from './projection-spec.ts';

const charge = inStream('charge-char_1');
const at = '2026-03-02T00:00:00Z';

describe('fraud warnings projection', () => {
  const spec = projectionSpec(fraudWarningsProjection);

  it('renders the warning a charge received, as GET /fraud-warnings/{id} shows it', async () => {
    await spec().given(
      charge(chargeSucceeded()),
      charge<ChargeEvent>(
        {
          type: 'FraudWarningReceived',
          data: {
            chargeId: 'char_1',
            fraudWarningId: 'fw_1',
            fraudDetails: { status: 'suspicious', score: 70 },
            actionable: true,
          },
        },
        at,
      ),
    );
    expect(withoutInternals((await spec().get(fraudWarningsCollection, 'fw_1'))!)).to.deep.equal({
      id: 'fw_1',
      created: seconds(at),
      objectType: 'fraud_warning',
      charge: 'char_1',
      actionable: true,
    });
    expect(await spec().all(fraudWarningsCollection)).to.have.length(1);
    await spec().expectRebuildIdentical();
  });
});
