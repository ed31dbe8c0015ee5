import type {
  ChargeAuthorizationEvent,
  ChargeAuthorizationStarted,
} from '../../../packages/domain/charge/charge-authorization.ts';
import { chargeAuthorizationDecider } from '../../../packages/domain/charge/charge-authorization.ts';
import { deciderSpec } from './decider-spec.ts';

const given = deciderSpec(chargeAuthorizationDecider);
const intent: ChargeAuthorizationStarted['data'] = {
  chargeId: 'char_1',
  networkReference: 'char_1',
  amount: 1000,
  currency: 'EUR',
  cardId: 'card_1',
  lookupDueAt: '2026-03-01T00:00:02.000Z',
  closableAt: '2026-03-02T00:00:00.000Z',
};
const started: ChargeAuthorizationEvent = { type: 'ChargeAuthorizationStarted', data: intent };
const notFound: ChargeAuthorizationEvent = {
  type: 'ChargeAuthorizationNotFound',
  data: { chargeId: 'char_1', nextLookupAt: '2026-03-02T00:00:00.000Z' },
};
const closed: ChargeAuthorizationEvent = { type: 'ChargeAuthorizationClosed', data: { chargeId: 'char_1' } };

describe('charge authorization intent decider', () => {
  it('records the intent once: a second start is the retry, which reconciles with the network', () => {
    given([])
      .when({ type: 'StartAuthorization', ...intent })
      .then([started]);
    given([started])
      .when({ type: 'StartAuthorization', ...intent })
      .then([]);
  });

  it('notes a lookup that found the charge nowhere, and closes the open intent once', () => {
    given([started])
      .when({ type: 'NoteAuthorizationNotFound', chargeId: 'char_1', nextLookupAt: '2026-03-02T00:00:00.000Z' })
      .then([notFound]);
    given([started, notFound]).when({ type: 'CloseAuthorization', chargeId: 'char_1' }).then([closed]);
    given([started, notFound, closed]).when({ type: 'CloseAuthorization', chargeId: 'char_1' }).then([]);
    given([started, closed])
      .when({ type: 'NoteAuthorizationNotFound', chargeId: 'char_1', nextLookupAt: '2026-03-02T00:00:00.000Z' })
      .then([]);
  });

  it('records nothing about an intent that was never started', () => {
    given([]).when({ type: 'CloseAuthorization', chargeId: 'char_1' }).then([]);
  });

  it('opens a closed intent again when the request is retried: nothing was charged, so it authorizes afresh', () => {
    given([started, closed])
      .when({ type: 'StartAuthorization', ...intent })
      .then([started]);
    given([started, closed, started]).when({ type: 'CloseAuthorization', chargeId: 'char_1' }).then([closed]);
  });
});
