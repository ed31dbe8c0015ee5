import { expect } from 'chai';
import {
  paymentMethodChargesDueCollection,
  paymentMethodChargesDueProjection,
} from '../../../projections/payment-method-charges-due-projection.ts';
import { authorized, charge, pending, processing } from './payment-method-fixtures.ts';
import { projectionSpec } from './projection-spec.ts';

describe('payment-method charges due projection', () => {
  const spec = projectionSpec(paymentMethodChargesDueProjection);

  it('lists a pending charge at its expiry, then at its confirmation time, until it is decided', async () => {
    const before = Date.now();
    await spec().given(charge(pending, '2026-02-01T10:00:00.000Z'));
    const [atExpiry] = await spec().all(paymentMethodChargesDueCollection);
    // Due after the business-time delay (one hour), counted in real time from when it was recorded.
    expect(atExpiry!.dueAtMs).to.be.within(before + 3_600_000, Date.now() + 3_600_000);
    expect(atExpiry).to.include({ id: 'char_1', chargeId: 'char_1', _accountId: 'acct_spec', _mode: 'test' });
    await spec().given(charge(processing));
    const [atConfirmation] = await spec().all(paymentMethodChargesDueCollection);
    expect(atConfirmation!.dueAtMs).to.be.below(atExpiry!.dueAtMs);
    await spec().given(charge(authorized));
    expect(await spec().all(paymentMethodChargesDueCollection)).to.deep.equal([]);
  });
});
