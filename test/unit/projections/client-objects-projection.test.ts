import { expect } from 'chai';
import { clientObjectsCollection, clientObjectsProjection } from '../../../projections/client-objects-projection.ts';
import { chargeSucceeded, seconds } from './fixtures.ts';
import { authorized, charge, pending } from './payment-method-fixtures.ts';
import { inStream, projectionSpec } from './projection-spec.ts';

describe('client objects projection', () => {
  const spec = projectionSpec(clientObjectsProjection);

  it("finds a payment-method charge and its tenant by the charge's client object id, for good", async () => {
    await spec().given(charge(pending, '2026-02-01T10:00:00.000Z'), charge(authorized));
    expect(await spec().get(clientObjectsCollection, 'client_char_1')).to.deep.equal({
      id: 'client_char_1',
      created: seconds('2026-02-01T10:00:00.000Z'),
      objectType: 'charge',
      chargeId: 'char_1',
      _accountId: 'acct_spec',
      _mode: 'test',
      _seq: 1,
    });
    await spec().expectRebuildIdentical();
  });

  it('has nothing for card charges', async () => {
    await spec().given(inStream('charge-char_2')(chargeSucceeded({ chargeId: 'char_2' })));
    expect(await spec().all(clientObjectsCollection)).to.deep.equal([]);
  });
});
