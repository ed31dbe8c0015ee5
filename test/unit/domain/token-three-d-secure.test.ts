import type { CardSnapshot } from '../../../packages/domain/card/card-snapshot.ts';
import type { ThreeDSecureResult } from '../../../packages/domain/charge/charge-events.ts';
import { CardError, InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import { tokenDecider } from '../../../packages/domain/token/token-decider.ts';
import type { TokenEvent } from '../../../packages/domain/token/token-events.ts';
import { cardSnapshot } from './card-snapshot-fixture.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(tokenDecider);
const tokenId = 'tok_1';
const now = new Date('2030-01-01T00:00:00Z');
const card: CardSnapshot = { ...cardSnapshot, first6: '400000', last4: '3220', vaultRef: 'v_1' };
const created: TokenEvent = {
  type: 'TokenCreated',
  data: { tokenId, card, expiresAt: '2030-01-01T01:00:00.000Z' },
};
const info = (liabilityShift: ThreeDSecureResult['liabilityShift'], amount = 1000): ThreeDSecureResult => ({
  amount,
  currency: 'EUR',
  enrolled: true,
  liabilityShift,
  authenticationFlow: 'challenge',
  version: '2.2.0',
});
const verified = (result: ThreeDSecureResult): TokenEvent => ({
  type: 'TokenThreeDSecureVerified',
  data: { tokenId, threeDSecureInfo: result },
});

describe('token decider: 3-D Secure', () => {
  it('records a verification on an unused token', () => {
    spec([created])
      .when({ type: 'VerifyThreeDSecure', tokenId, threeDSecureInfo: info('pending'), now })
      .then([verified(info('pending'))]);
  });

  it('records nothing when verified again for the same amount and currency (a reloaded page)', () => {
    spec([created, verified(info('pending'))])
      .when({ type: 'VerifyThreeDSecure', tokenId, threeDSecureInfo: info('pending'), now })
      .then([]);
  });

  it('replaces the result when verified for another amount', () => {
    spec([created, verified(info('successful'))])
      .when({ type: 'VerifyThreeDSecure', tokenId, threeDSecureInfo: info('pending', 2500), now })
      .then([verified(info('pending', 2500))]);
  });

  it('refuses to verify an unknown, used or expired token', () => {
    spec([])
      .when({ type: 'VerifyThreeDSecure', tokenId, threeDSecureInfo: info('pending'), now })
      .thenThrows(NotFoundError);
    spec([created, { type: 'TokenUsed', data: { tokenId, use: { kind: 'charge', chargeId: 'char_1' } } }])
      .when({ type: 'VerifyThreeDSecure', tokenId, threeDSecureInfo: info('pending'), now })
      .thenThrows(InvalidRequestError, /already been used/);
    spec([created])
      .when({
        type: 'VerifyThreeDSecure',
        tokenId,
        threeDSecureInfo: info('pending'),
        now: new Date('2030-01-01T02:00:00Z'),
      })
      .thenThrows(CardError, /expired/);
  });

  it('completes an open challenge as successful or failed', () => {
    spec([created, verified(info('pending'))])
      .when({ type: 'CompleteThreeDSecureChallenge', tokenId, authenticated: true, now })
      .then([{ type: 'TokenThreeDSecureChallengeCompleted', data: { tokenId, liabilityShift: 'successful' } }]);
    spec([created, verified(info('pending'))])
      .when({ type: 'CompleteThreeDSecureChallenge', tokenId, authenticated: false, now })
      .then([{ type: 'TokenThreeDSecureChallengeCompleted', data: { tokenId, liabilityShift: 'failed' } }]);
  });

  it('refuses to complete a challenge that is not open: never opened, or already answered', () => {
    spec([created])
      .when({ type: 'CompleteThreeDSecureChallenge', tokenId, authenticated: true, now })
      .thenThrows(InvalidRequestError, /no open 3-D Secure challenge/);
    spec([
      created,
      verified(info('pending')),
      { type: 'TokenThreeDSecureChallengeCompleted', data: { tokenId, liabilityShift: 'failed' } },
    ])
      .when({ type: 'CompleteThreeDSecureChallenge', tokenId, authenticated: true, now })
      .thenThrows(InvalidRequestError, /no open 3-D Secure challenge/);
  });
});
