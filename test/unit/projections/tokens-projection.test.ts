import { expect } from 'chai';
import type { TokenEvent } from '../../../packages/domain/token/token-events.ts';
import { tokensCollection, tokensProjection } from '../../../projections/tokens-projection.ts';
import { cardSnapshot } from '../domain/card-snapshot-fixture.ts';
import { seconds } from './fixtures.ts';
import { inStream, projectionSpec, tenant, withoutInternals } from './projection-spec.ts';
import { tenantFingerprint } from '../../../packages/vault/tenant-fingerprint.ts';

const token = inStream('token-tok_1');
const at = '2026-01-10T08:00:00Z';

describe('tokens projection', () => {
  const spec = projectionSpec(tokensProjection);

  it('renders a token with the card fields of the spec, then used, then with the card saved from it', async () => {
    await spec().given(
      token<TokenEvent>(
        { type: 'TokenCreated', data: { tokenId: 'tok_1', card: cardSnapshot, expiresAt: '2026-01-11T08:00:00Z' } },
        at,
      ),
    );
    expect(withoutInternals((await spec().get(tokensCollection, 'tok_1'))!)).to.deep.equal({
      id: 'tok_1',
      created: seconds(at),
      objectType: 'token',
      first6: '424242',
      last4: '4242',
      // The account and mode's own fingerprint of the card, never the stored one.
      fingerprint: tenantFingerprint('fp_1', tenant),
      expMonth: '05',
      expYear: '2040',
      cardholderName: null,
      brand: 'Visa',
      type: 'Credit Card',
      country: 'US',
      used: false,
    });
    await spec().given(
      token<TokenEvent>({
        type: 'TokenUsed',
        data: { tokenId: 'tok_1', use: { kind: 'card', customerId: 'cust_1', cardId: 'card_1' } },
      }),
      token<TokenEvent>({
        type: 'TokenCardCreated',
        data: { tokenId: 'tok_1', customerId: 'cust_1', cardId: 'card_1' },
      }),
    );
    const doc = (await spec().get(tokensCollection, 'tok_1'))!;
    expect(doc.used).to.equal(true);
    expect(doc.card).to.include({ id: 'card_1', customerId: 'cust_1', last4: '4242', objectType: 'card' });
    await spec().expectRebuildIdentical();
  });

  it('shows the 3-D Secure result once verified: pending while the challenge is open, then its outcome', async () => {
    const info = {
      amount: 1000,
      currency: 'EUR',
      enrolled: true,
      liabilityShift: 'pending' as const,
      authenticationFlow: 'challenge' as const,
      version: '2.2.0',
    };
    await spec().given(
      token<TokenEvent>(
        { type: 'TokenCreated', data: { tokenId: 'tok_1', card: cardSnapshot, expiresAt: '2026-01-11T08:00:00Z' } },
        at,
      ),
      token<TokenEvent>({ type: 'TokenThreeDSecureVerified', data: { tokenId: 'tok_1', threeDSecureInfo: info } }),
    );
    expect((await spec().get(tokensCollection, 'tok_1'))!.threeDSecureInfo).to.deep.equal(info);
    await spec().given(
      token<TokenEvent>({
        type: 'TokenThreeDSecureChallengeCompleted',
        data: { tokenId: 'tok_1', liabilityShift: 'successful' },
      }),
    );
    expect((await spec().get(tokensCollection, 'tok_1'))!.threeDSecureInfo).to.deep.equal({
      ...info,
      liabilityShift: 'successful',
    });
    await spec().expectRebuildIdentical();
  });
});
