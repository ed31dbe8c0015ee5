import { chargeDecider } from '../../../packages/domain/charge/charge-decider.ts';
import type { ChargeAttempt, ChargeEvent, ChargeFailure } from '../../../packages/domain/charge/charge-events.ts';
import type { NetworkOutcomeDue } from '../../../packages/domain/charge/network-outcome-events.ts';
import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import { acceptsEverything, createAnswered } from './charge-creation-fixture.ts';
import { deciderSpec } from './decider-spec.ts';
import { chargeAttempt } from '../projections/fixtures.ts';

const spec = deciderSpec(chargeDecider);

const attempt = chargeAttempt({
  amount: 2500,
  fraudDetails: { status: 'in_progress', score: 7 },
  metadata: { order: '1' },
  networkTransactionId: 'sim_1',
});
const declined: ChargeFailure = {
  failureCode: 'card_declined',
  failureMessage: 'The card was declined.',
  failureIssuerDeclineCode: 'do_not_honor',
  blacklistRuleId: null,
};
const warningDue: NetworkOutcomeDue = {
  kind: 'fraud_warning',
  dueAt: '2026-01-01T00:00:02.000Z',
  fraudDetails: { status: 'fraudulent', score: 95 },
};

const succeeded: ChargeEvent = { type: 'ChargeSucceeded', data: attempt };
const authorized: ChargeEvent = { type: 'ChargeSucceeded', data: { ...attempt, captured: false } };
const failed: ChargeEvent = { type: 'ChargeFailed', data: { ...attempt, networkTransactionId: null, ...declined } };
const captured: ChargeEvent = { type: 'ChargeCaptured', data: { chargeId: 'char_1', amount: 2500 } };
const refundRequested = (refundId: string, amount: number): ChargeEvent => ({
  type: 'RefundRequested',
  data: { chargeId: 'char_1', refundId, amount, currency: 'EUR', reason: null, metadata: {} },
});
const refundSettled = (refundId: string, status: 'successful' | 'failed'): ChargeEvent => ({
  type: 'RefundSettled',
  data: { chargeId: 'char_1', refundId, status },
});

describe('charge decider', () => {
  describe('CreateCharge', () => {
    it('records a successful charge, with the outcomes the network announced for later', () => {
      spec([]).when(createAnswered(attempt)).then([succeeded]);
      spec([])
        .when(createAnswered(attempt, { expectedOutcomes: [warningDue] }))
        .then([succeeded, { type: 'NetworkOutcomesExpected', data: { chargeId: 'char_1', outcomes: [warningDue] } }]);
    });

    it('records a declined charge with its failure, and never announced outcomes', () => {
      spec([])
        .when(
          createAnswered(
            { ...attempt, networkTransactionId: null },
            { decline: declined, expectedOutcomes: [warningDue] },
          ),
        )
        .then([failed]);
    });

    it('records a charge id once', () => {
      spec([succeeded]).when(createAnswered(attempt)).thenThrows(InvalidRequestError);
      spec([failed]).when(createAnswered(attempt)).thenThrows(InvalidRequestError);
    });
  });

  describe('CaptureCharge', () => {
    it('captures an authorized charge for its whole amount, once', () => {
      spec([authorized]).when({ type: 'CaptureCharge', chargeId: 'char_1' }).then([captured]);
      spec([authorized, captured])
        .when({ type: 'CaptureCharge', chargeId: 'char_1' })
        .thenThrows(InvalidRequestError, /already been captured/);
      spec([succeeded])
        .when({ type: 'CaptureCharge', chargeId: 'char_1' })
        .thenThrows(InvalidRequestError, /already been captured/);
    });

    it('refuses failed and unknown charges', () => {
      spec([failed])
        .when({ type: 'CaptureCharge', chargeId: 'char_1' })
        .thenThrows(InvalidRequestError, /failed/);
      spec([]).when({ type: 'CaptureCharge', chargeId: 'char_1' }).thenThrows(NotFoundError);
    });
  });

  describe('UpdateCharge', () => {
    it('records only the fields that change', () => {
      const shipping = { name: 'A. Buyer', address: { city: 'Berlin', country: 'DE' } };
      spec([succeeded])
        .when({
          type: 'UpdateCharge',
          chargeId: 'char_1',
          customerId: 'cust_1',
          description: 'Order 1',
          shipping,
          billing: null,
          fraudStatus: 'safe',
          metadata: { order: '1' },
        })
        .then([
          {
            type: 'ChargeUpdated',
            data: {
              chargeId: 'char_1',
              customerId: 'cust_1',
              shipping,
              fraudDetails: { status: 'safe', score: 7 },
            },
          },
        ]);
      spec([succeeded])
        .when({ type: 'UpdateCharge', chargeId: 'char_1', description: null, metadata: {} })
        .then([{ type: 'ChargeUpdated', data: { chargeId: 'char_1', description: null, metadata: {} } }]);
    });

    it('records nothing when nothing changes', () => {
      spec([succeeded]).when({ type: 'UpdateCharge', chargeId: 'char_1' }).then([]);
      spec([succeeded])
        .when({
          type: 'UpdateCharge',
          chargeId: 'char_1',
          description: 'Order 1',
          billing: null,
          fraudStatus: 'in_progress',
          metadata: { order: '1' },
        })
        .then([]);
    });

    it('assigns a customer once: the same customer again is no change, another one an error', () => {
      const assigned: ChargeEvent = { type: 'ChargeUpdated', data: { chargeId: 'char_1', customerId: 'cust_1' } };
      spec([succeeded, assigned]).when({ type: 'UpdateCharge', chargeId: 'char_1', customerId: 'cust_1' }).then([]);
      spec([succeeded, assigned])
        .when({ type: 'UpdateCharge', chargeId: 'char_1', customerId: 'cust_2' })
        .thenThrows(InvalidRequestError, /already assigned/);
    });

    it('updates failed charges too, but not unknown ones', () => {
      spec([failed])
        .when({ type: 'UpdateCharge', chargeId: 'char_1', description: 'Retry later' })
        .then([{ type: 'ChargeUpdated', data: { chargeId: 'char_1', description: 'Retry later' } }]);
      spec([]).when({ type: 'UpdateCharge', chargeId: 'char_1', description: 'x' }).thenThrows(NotFoundError);
    });
  });

  describe('RequestRefund', () => {
    const refund = { type: 'RequestRefund', chargeId: 'char_1', reason: null, metadata: {} } as const;

    it('refunds what is left when no amount is given, and reserves it at once', () => {
      spec([succeeded])
        .when({ ...refund, refundId: 're_1' })
        .then([refundRequested('re_1', 2500)]);
      spec([succeeded, refundRequested('re_1', 1000)])
        .when({ ...refund, refundId: 're_2' })
        .then([refundRequested('re_2', 1500)]);
    });

    it('refunds part of the amount, and never more than is left (pending refunds count)', () => {
      spec([succeeded])
        .when({ ...refund, refundId: 're_1', amount: 1000, reason: 'fraudulent', metadata: { why: 'stolen' } })
        .then([
          {
            type: 'RefundRequested',
            data: {
              chargeId: 'char_1',
              refundId: 're_1',
              amount: 1000,
              currency: 'EUR',
              reason: 'fraudulent',
              metadata: { why: 'stolen' },
            },
          },
        ]);
      spec([succeeded, refundRequested('re_1', 2000)])
        .when({ ...refund, refundId: 're_2', amount: 501 })
        .thenThrows(InvalidRequestError, /must not exceed the amount left to refund \(500\)/);
    });

    it('gives back the amount of a failed refund', () => {
      spec([succeeded, refundRequested('re_1', 2500), refundSettled('re_1', 'failed')])
        .when({ ...refund, refundId: 're_2' })
        .then([refundRequested('re_2', 2500)]);
    });

    it('refuses fully refunded, uncaptured, failed and unknown charges', () => {
      spec([succeeded, refundRequested('re_1', 2500), refundSettled('re_1', 'successful')])
        .when({ ...refund, refundId: 're_2' })
        .thenThrows(InvalidRequestError, /fully refunded/);
      spec([authorized])
        .when({ ...refund, refundId: 're_1' })
        .thenThrows(InvalidRequestError, /not been captured/);
      spec([failed])
        .when({ ...refund, refundId: 're_1' })
        .thenThrows(InvalidRequestError, /failed/);
      spec([])
        .when({ ...refund, refundId: 're_1' })
        .thenThrows(NotFoundError);
    });
  });

  describe('SettleRefund', () => {
    it("records the network's answer for a pending refund, and nothing the second time", () => {
      spec([succeeded, refundRequested('re_1', 2500)])
        .when({ type: 'SettleRefund', chargeId: 'char_1', refundId: 're_1', status: 'successful' })
        .then([refundSettled('re_1', 'successful')]);
      spec([succeeded, refundRequested('re_1', 2500), refundSettled('re_1', 'successful')])
        .when({ type: 'SettleRefund', chargeId: 'char_1', refundId: 're_1', status: 'failed' })
        .then([]);
    });

    it('refuses unknown refunds and charges', () => {
      spec([succeeded])
        .when({ type: 'SettleRefund', chargeId: 'char_1', refundId: 're_9', status: 'successful' })
        .thenThrows(NotFoundError, /re_9/);
      spec([])
        .when({ type: 'SettleRefund', chargeId: 'char_1', refundId: 're_1', status: 'successful' })
        .thenThrows(NotFoundError);
    });
  });

  describe('UpdateRefund', () => {
    it('replaces the metadata when it changes, and records nothing otherwise', () => {
      spec([succeeded, refundRequested('re_1', 2500)])
        .when({ type: 'UpdateRefund', chargeId: 'char_1', refundId: 're_1', metadata: { note: 'late' } })
        .then([{ type: 'RefundUpdated', data: { chargeId: 'char_1', refundId: 're_1', metadata: { note: 'late' } } }]);
      spec([succeeded, refundRequested('re_1', 2500)])
        .when({ type: 'UpdateRefund', chargeId: 'char_1', refundId: 're_1', metadata: {} })
        .then([]);
    });

    it('refuses unknown refunds', () => {
      spec([succeeded])
        .when({ type: 'UpdateRefund', chargeId: 'char_1', refundId: 're_9', metadata: {} })
        .thenThrows(NotFoundError);
    });
  });

  describe('AddCrossSaleCharge', () => {
    const crossSaleCharge = { accountId: 'acct_owner', chargeId: 'char_owner1', offerId: 'cso_1' };
    const add = { type: 'AddCrossSaleCharge' as const, chargeId: 'char_1', crossSaleCharge };
    const added: ChargeEvent = { type: 'CrossSaleChargeAdded', data: { chargeId: 'char_1', crossSaleCharge } };

    it('lists a cross-sale charge on a successful main charge, once', () => {
      spec([succeeded]).when(add).then([added]);
      spec([succeeded, added]).when(add).then([]);
      const another = { ...crossSaleCharge, chargeId: 'char_owner2' };
      spec([succeeded, added])
        .when({ ...add, crossSaleCharge: another })
        .then([{ type: 'CrossSaleChargeAdded', data: { chargeId: 'char_1', crossSaleCharge: another } }]);
    });

    it('refuses a failed or unknown main charge', () => {
      spec([failed])
        .when(add)
        .thenThrows(InvalidRequestError, /did not succeed/);
      spec([]).when(add).thenThrows(NotFoundError);
    });
  });
});

describe('charge decider: live charges whose processor answer is unknown', () => {
  const live: ChargeAttempt = { ...attempt, networkTransactionId: null, processorId: 'proc_1' };
  const pending: ChargeEvent = { type: 'CardChargePending', data: live };
  const createPending = {
    type: 'CreateCharge',
    attempt: { ...attempt, networkTransactionId: null },
    accepted: acceptsEverything,
    blacklistRule: null,
    authorization: { answered: false, processorId: 'proc_1', lookupDueAt: '2026-01-01T00:00:00.000Z' },
  } as const;
  const lookupDue: ChargeEvent = {
    type: 'NetworkOutcomesExpected',
    data: { chargeId: 'char_1', outcomes: [{ kind: 'authorization', dueAt: '2026-01-01T00:00:00.000Z' }] },
  };
  const settled = (failure: ChargeFailure | null): ChargeEvent => ({
    type: 'CardChargeSettled',
    data: {
      chargeId: 'char_1',
      networkTransactionId: failure ? null : 'char_atProcessor',
      processorId: 'proc_1',
      failure,
    },
  });

  it('records the charge pending with its lookup due, once', () => {
    spec([]).when(createPending).then([pending, lookupDue]);
    spec([pending, lookupDue])
      .when(createPending)
      .thenThrows(InvalidRequestError, /already exists/);
  });

  it('settles a pending charge once, as taken or declined; a settled one records nothing', () => {
    const settle = (failure: ChargeFailure | null) =>
      ({
        type: 'SettleCardCharge',
        chargeId: 'char_1',
        networkTransactionId: failure ? null : 'char_atProcessor',
        processorId: 'proc_1',
        failure,
      }) as const;
    spec([pending, lookupDue])
      .when(settle(null))
      .then([settled(null)]);
    spec([pending, lookupDue])
      .when(settle(declined))
      .then([settled(declined)]);
    spec([pending, lookupDue, settled(null)])
      .when(settle(declined))
      .then([]);
    spec([succeeded]).when(settle(null)).then([]);
  });

  it('refuses to capture or refund a pending charge; captures and refunds it once taken', () => {
    const notCaptured: ChargeEvent = { type: 'CardChargePending', data: { ...live, captured: false } };
    spec([notCaptured])
      .when({ type: 'CaptureCharge', chargeId: 'char_1' })
      .thenThrows(InvalidRequestError, /pending/);
    spec([pending])
      .when({ type: 'RequestRefund', chargeId: 'char_1', refundId: 're_1', reason: null, metadata: {} })
      .thenThrows(InvalidRequestError, /pending/);
    spec([notCaptured, settled(null)])
      .when({ type: 'CaptureCharge', chargeId: 'char_1' })
      .then([{ type: 'ChargeCaptured', data: { chargeId: 'char_1', amount: 2500 } }]);
    spec([pending, settled(null)])
      .when({ type: 'RequestRefund', chargeId: 'char_1', refundId: 're_1', reason: null, metadata: {} })
      .then([refundRequested('re_1', 2500)]);
  });
});
