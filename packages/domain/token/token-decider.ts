import type { CardSnapshot } from '../card/card-snapshot.ts';
import type { ThreeDSecureResult } from '../charge/charge-events.ts';
import type { Decider } from '../decider.ts';
import { CardError, InvalidRequestError, NotFoundError } from '../errors.ts';
import { challengeOpen } from './three-d-secure-challenge.ts';
import type { TokenEvent, TokenUse } from './token-events.ts';

export type TokenCommand =
  | { type: 'CreateToken'; tokenId: string; card: CardSnapshot; expiresAt: Date }
  | { type: 'UseToken'; tokenId: string; use: TokenUse; now: Date }
  | { type: 'RecordTokenCard'; tokenId: string; customerId: string; cardId: string }
  /** `threeDSecureInfo` is what the directory server answered for the amount (I/O before deciding). */
  | { type: 'VerifyThreeDSecure'; tokenId: string; threeDSecureInfo: ThreeDSecureResult; now: Date }
  | { type: 'CompleteThreeDSecureChallenge'; tokenId: string; authenticated: boolean; now: Date };

export type TokenState =
  | { status: 'none' }
  | {
      status: 'unused' | 'used';
      tokenId: string;
      card: CardSnapshot;
      expiresAt: string;
      cardId: string | null;
      threeDSecureInfo: ThreeDSecureResult | null;
      /** What used the token, once used. */
      use?: TokenUse;
    };

export const tokenDecider: Decider<TokenCommand, TokenEvent, TokenState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'TokenCreated':
        return {
          status: 'unused',
          tokenId: event.data.tokenId,
          card: event.data.card,
          expiresAt: event.data.expiresAt,
          cardId: null,
          threeDSecureInfo: null,
        };
      case 'TokenUsed':
        return state.status === 'none' ? state : { ...state, status: 'used', use: event.data.use };
      case 'TokenCardCreated':
        return state.status === 'none' ? state : { ...state, cardId: event.data.cardId };
      case 'TokenThreeDSecureVerified':
        return state.status === 'none' ? state : { ...state, threeDSecureInfo: event.data.threeDSecureInfo };
      case 'TokenThreeDSecureChallengeCompleted':
        return state.status === 'none' || state.threeDSecureInfo === null
          ? state
          : { ...state, threeDSecureInfo: { ...state.threeDSecureInfo, liabilityShift: event.data.liabilityShift } };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateToken':
        if (state.status !== 'none') throw new InvalidRequestError(`Token '${command.tokenId}' already exists`);
        return [
          {
            type: 'TokenCreated',
            data: { tokenId: command.tokenId, card: command.card, expiresAt: command.expiresAt.toISOString() },
          },
        ];
      case 'UseToken':
        // A token named in a parameter that does not exist is a bad parameter, not a missing resource.
        if (state.status === 'none')
          throw new InvalidRequestError(`Invalid parameter: token '${command.tokenId}' does not exist`);
        if (state.status === 'used') {
          // The same use again is the retry of a request that was cut short: it has the token already.
          if (sameUse(state.use, command.use)) return [];
          throw new InvalidRequestError(`Token '${command.tokenId}' has already been used`);
        }
        if (command.now.getTime() > Date.parse(state.expiresAt))
          throw new CardError('expired_token', 'The token has expired.');
        return [{ type: 'TokenUsed', data: { tokenId: command.tokenId, use: command.use } }];
      case 'RecordTokenCard':
        if (state.status === 'none') throw new NotFoundError('Token', command.tokenId);
        if (state.cardId !== null) return [];
        return [
          {
            type: 'TokenCardCreated',
            data: { tokenId: command.tokenId, customerId: command.customerId, cardId: command.cardId },
          },
        ];
      case 'VerifyThreeDSecure': {
        const token = unusedToken(state, command.tokenId, command.now);
        const current = token.threeDSecureInfo;
        // Asking again for the same amount (a page reloaded mid-challenge) changes nothing.
        const { amount, currency } = command.threeDSecureInfo;
        if (current && current.amount === amount && current.currency === currency) return [];
        return [
          {
            type: 'TokenThreeDSecureVerified',
            data: { tokenId: command.tokenId, threeDSecureInfo: command.threeDSecureInfo },
          },
        ];
      }
      case 'CompleteThreeDSecureChallenge': {
        const token = unusedToken(state, command.tokenId, command.now);
        if (!challengeOpen(token.threeDSecureInfo))
          throw new InvalidRequestError(`Token '${command.tokenId}' has no open 3-D Secure challenge`);
        return [
          {
            type: 'TokenThreeDSecureChallengeCompleted',
            data: { tokenId: command.tokenId, liabilityShift: command.authenticated ? 'successful' : 'failed' },
          },
        ];
      }
    }
  },
};

function sameUse(recorded: TokenUse | undefined, wanted: TokenUse): boolean {
  if (recorded === undefined || recorded.kind !== wanted.kind) return false;
  switch (wanted.kind) {
    case 'charge':
      return recorded.kind === 'charge' && recorded.chargeId === wanted.chargeId;
    case 'card':
      return recorded.kind === 'card' && recorded.customerId === wanted.customerId && recorded.cardId === wanted.cardId;
    case 'credit':
      return recorded.kind === 'credit' && recorded.creditId === wanted.creditId;
  }
}

/** 3-D Secure runs on a token before its one use, while it is valid. */
function unusedToken(state: TokenState, tokenId: string, now: Date) {
  if (state.status === 'none') throw new NotFoundError('Token', tokenId);
  if (state.status === 'used') throw new InvalidRequestError(`Token '${tokenId}' has already been used`);
  if (now.getTime() > Date.parse(state.expiresAt)) throw new CardError('expired_token', 'The token has expired.');
  return state;
}
