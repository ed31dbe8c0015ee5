import type { CardSnapshot } from '../../../packages/domain/card/card-snapshot.ts';
import { chargeDecider, type ChargeCommand } from '../../../packages/domain/charge/charge-decider.ts';
import type { ChargeEvent } from '../../../packages/domain/charge/charge-events.ts';
import { NotFoundError } from '../../../packages/domain/errors.ts';
import { cardSnapshot } from './card-snapshot-fixture.ts';
import { deciderSpec } from './decider-spec.ts';
import { chargeAttempt } from '../projections/fixtures.ts';

const spec = deciderSpec(chargeDecider);

const card: CardSnapshot = { ...cardSnapshot, expMonth: '12', expYear: '2040' };

const attempt = chargeAttempt({
  amount: 2000,
  description: null,
  card,
  fraudDetails: { status: 'unknown', score: 0 },
  networkTransactionId: 'char_at_processor',
  processorId: 'proc_1',
});

const succeeded: ChargeEvent = { type: 'ChargeSucceeded', data: attempt };
const ourRefund: ChargeEvent = {
  type: 'RefundRequested',
  data: { chargeId: 'char_1', refundId: 're_ours', amount: 500, currency: 'EUR', reason: null, metadata: {} },
};
const reported = (
  overrides: Partial<Extract<ChargeCommand, { type: 'RecordProcessorRefund' }>> = {},
): ChargeCommand => ({
  type: 'RecordProcessorRefund',
  chargeId: 'char_1',
  refundId: 're_derived',
  processorRefundId: 're_at_processor',
  reference: null,
  amount: 300,
  currency: 'EUR',
  status: 'successful',
  ...overrides,
});
const madeThere: ChargeEvent[] = [
  {
    type: 'RefundRequested',
    data: {
      chargeId: 'char_1',
      refundId: 're_derived',
      amount: 300,
      currency: 'EUR',
      reason: null,
      metadata: {},
      processorRefundId: 're_at_processor',
    },
  },
  { type: 'RefundSettled', data: { chargeId: 'char_1', refundId: 're_derived', status: 'successful' } },
];
const dispute = (stage: 'chargeback' | 'retrieval_request' | 'won' | 'lost'): ChargeCommand => ({
  type: 'RecordProcessorDispute',
  chargeId: 'char_1',
  disputeId: 'dp_derived',
  amount: 2000,
  currency: 'EUR',
  reason: 'FRAUDULENT',
  stage,
});
const opened = (status: 'CHARGEBACK_NEW' | 'RETRIEVAL_REQUEST_NEW'): ChargeEvent => ({
  type: 'DisputeOpened',
  data: { chargeId: 'char_1', disputeId: 'dp_derived', amount: 2000, currency: 'EUR', reason: 'FRAUDULENT', status },
});

describe('charge decider: refunds and disputes reported by the processor', () => {
  it('records a refund made at the processor as a settled refund, once', () => {
    spec([succeeded]).when(reported()).then(madeThere);
    spec([succeeded, ...madeThere])
      .when(reported())
      .then([]);
  });

  it('records nothing for a refund this service made, and settles it when it still waits for its answer', () => {
    const settledOurs: ChargeEvent = {
      type: 'RefundSettled',
      data: { chargeId: 'char_1', refundId: 're_ours', status: 'successful' },
    };
    spec([succeeded, ourRefund])
      .when(reported({ reference: 're_ours', amount: 500 }))
      .then([settledOurs]);
    spec([succeeded, ourRefund, settledOurs])
      .when(reported({ reference: 're_ours', amount: 500 }))
      .then([]);
  });

  it('records nothing for a refund the processor has not made (pending or failed there)', () => {
    spec([succeeded])
      .when(reported({ status: 'pending' }))
      .then([]);
    spec([succeeded])
      .when(reported({ status: 'failed' }))
      .then([]);
  });

  it('opens the dispute once, as a chargeback or a retrieval request', () => {
    spec([succeeded])
      .when(dispute('chargeback'))
      .then([opened('CHARGEBACK_NEW')]);
    spec([succeeded])
      .when(dispute('retrieval_request'))
      .then([opened('RETRIEVAL_REQUEST_NEW')]);
    spec([succeeded, opened('CHARGEBACK_NEW')])
      .when(dispute('chargeback'))
      .then([]);
  });

  it('decides the open dispute once; a decision for a dispute not yet opened here opens it first', () => {
    const won: ChargeEvent = {
      type: 'DisputeWon',
      data: { chargeId: 'char_1', disputeId: 'dp_derived', status: 'CHARGEBACK_REPRESENTED_SUCCESSFULLY' },
    };
    const lost: ChargeEvent = {
      type: 'DisputeLost',
      data: {
        chargeId: 'char_1',
        disputeId: 'dp_derived',
        status: 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY',
        acceptedAsLost: false,
      },
    };
    spec([succeeded, opened('CHARGEBACK_NEW')])
      .when(dispute('won'))
      .then([won]);
    spec([succeeded, opened('CHARGEBACK_NEW'), won])
      .when(dispute('lost'))
      .then([]);
    spec([succeeded])
      .when(dispute('lost'))
      .then([opened('CHARGEBACK_NEW'), lost]);
  });

  it('records nothing on a charge the processor did not take, and refuses an unknown charge', () => {
    const failed: ChargeEvent = {
      type: 'ChargeFailed',
      data: {
        ...attempt,
        failureCode: 'card_declined',
        failureMessage: 'declined',
        failureIssuerDeclineCode: null,
        blacklistRuleId: null,
      },
    };
    spec([failed]).when(reported()).then([]);
    spec([failed]).when(dispute('chargeback')).then([]);
    spec([]).when(reported()).thenThrows(NotFoundError);
  });
});
