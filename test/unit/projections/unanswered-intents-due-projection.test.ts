import { expect } from 'chai';
import type { ChargeAuthorizationEvent } from '../../../packages/domain/charge/charge-authorization.ts';
import type { ChargeEvent } from '../../../packages/domain/charge/charge-events.ts';
import {
  unansweredIntentsDueCollection,
  unansweredIntentsDueProjection,
} from '../../../projections/unanswered-intents-due-projection.ts';
import { chargeAttempt, chargeSucceeded } from './fixtures.ts';
import { inStream, projectionSpec } from './projection-spec.ts';

const live = { accountId: 'acct_spec', mode: 'live' as const };
const intent = (event: ChargeAuthorizationEvent, at?: string) => ({
  ...inStream('chargeAuthorization-char_1')(event, at),
  tenant: live,
});
const charge = (event: ChargeEvent) => ({ ...inStream('charge-char_1')(event), tenant: live });
const recordedAt = '2026-03-01T00:00:00.000Z';

const started = (lookupDueAt?: string): ChargeAuthorizationEvent => ({
  type: 'ChargeAuthorizationStarted',
  data: {
    chargeId: 'char_1',
    networkReference: 'char_1',
    amount: 1000,
    currency: 'EUR',
    cardId: 'card_1',
    ...(lookupDueAt ? { attempt: chargeAttempt(), lookupDueAt, closableAt: '2026-03-02T00:00:00.000Z' } : {}),
  },
});

describe('unanswered intents due projection', () => {
  const spec = projectionSpec(unansweredIntentsDueProjection);

  it('lists a live intent from its lookup time, in real time, until its charge is recorded', async () => {
    const before = Date.now();
    await spec().given(intent(started('2026-03-01T00:00:04.000Z'), recordedAt));
    const [due] = await spec().all(unansweredIntentsDueCollection);
    expect(due).to.include({
      id: 'unanswered-intent:charge:char_1',
      kind: 'charge',
      paymentId: 'char_1',
      _accountId: 'acct_spec',
      _mode: 'live',
    });
    expect(due!.dueAtMs).to.be.within(before + 4000, Date.now() + 4000);
    await spec().given(charge(chargeSucceeded()));
    expect(await spec().all(unansweredIntentsDueCollection)).to.deep.equal([]);
    await spec().expectRebuildIdentical();
  });

  it('moves the intent to the next lookup a lookup names, and drops it once closed', async () => {
    await spec().given(intent(started('2026-03-01T00:00:04.000Z'), recordedAt));
    const before = Date.now();
    await spec().given(
      intent(
        { type: 'ChargeAuthorizationNotFound', data: { chargeId: 'char_1', nextLookupAt: '2026-03-01T01:00:00.000Z' } },
        recordedAt,
      ),
    );
    const [due] = await spec().all(unansweredIntentsDueCollection);
    expect(due!.dueAtMs).to.be.within(before + 3_600_000, Date.now() + 3_600_000);
    await spec().given(intent({ type: 'ChargeAuthorizationClosed', data: { chargeId: 'char_1' } }));
    expect(await spec().all(unansweredIntentsDueCollection)).to.deep.equal([]);
    await spec().expectRebuildIdentical();
  });

  it('lists no test-mode intent: the simulator answers a repeated reference from its journal', async () => {
    await spec().given(inStream('chargeAuthorization-char_1')(started()));
    expect(await spec().all(unansweredIntentsDueCollection)).to.deep.equal([]);
  });
});
