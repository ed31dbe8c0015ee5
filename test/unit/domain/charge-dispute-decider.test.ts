import type { CardSnapshot } from '../../../packages/domain/card/card-snapshot.ts';
import { chargeDecider, type ChargeCommand } from '../../../packages/domain/charge/charge-decider.ts';
import type { ChargeEvent } from '../../../packages/domain/charge/charge-events.ts';
import type { NetworkOutcomeDue } from '../../../packages/domain/charge/network-outcome-events.ts';
import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import { createAnswered } from './charge-creation-fixture.ts';
import { cardSnapshot } from './card-snapshot-fixture.ts';
import { deciderSpec } from './decider-spec.ts';
import { chargeAttempt } from '../projections/fixtures.ts';

const spec = deciderSpec(chargeDecider);

const card: CardSnapshot = { ...cardSnapshot, first6: '424200', last4: '0018', expMonth: '12', expYear: '2040' };

const attempt = chargeAttempt({
  amount: 2500,
  description: null,
  card,
  fraudDetails: { status: 'in_progress', score: 7 },
  networkTransactionId: 'sim_1',
});

const disputeDue: NetworkOutcomeDue = { kind: 'dispute', dueAt: '2026-01-01T00:00:02.000Z', reason: 'FRAUDULENT' };
const warningDue: NetworkOutcomeDue = {
  kind: 'fraud_warning',
  dueAt: '2026-01-01T00:00:02.000Z',
  fraudDetails: { status: 'fraudulent', score: 95 },
};

const succeeded: ChargeEvent = { type: 'ChargeSucceeded', data: attempt };
const expected = (...outcomes: NetworkOutcomeDue[]): ChargeEvent => ({
  type: 'NetworkOutcomesExpected',
  data: { chargeId: 'char_1', outcomes },
});
const opened: ChargeEvent = {
  type: 'DisputeOpened',
  data: {
    chargeId: 'char_1',
    disputeId: 'dp_1',
    amount: 2500,
    currency: 'EUR',
    reason: 'FRAUDULENT',
    status: 'CHARGEBACK_NEW',
  },
};
const deliver = (kind: NetworkOutcomeDue['kind']): ChargeCommand => ({
  type: 'DeliverNetworkOutcome',
  chargeId: 'char_1',
  kind,
  disputeId: 'dp_1',
  fraudWarningId: 'fw_1',
});
const decisionDue = (outcome: 'won' | 'lost'): NetworkOutcomeDue => ({
  kind: 'dispute_decision',
  dueAt: '2026-01-01T00:01:00.000Z',
  outcome,
});
const submit = (outcome: 'won' | 'lost'): ChargeCommand => ({
  type: 'SubmitDisputeEvidence',
  chargeId: 'char_1',
  disputeId: 'dp_1',
  evidence: { customerName: 'Jane Doe', uncategorizedText: outcome === 'won' ? 'winning_evidence' : 'please' },
  decision: { outcome, dueAt: '2026-01-01T00:01:00.000Z' },
});
const submitted: ChargeEvent = {
  type: 'DisputeEvidenceSubmitted',
  data: { chargeId: 'char_1', disputeId: 'dp_1', evidence: { customerName: 'Jane Doe' } },
};
const won: ChargeEvent = {
  type: 'DisputeWon',
  data: { chargeId: 'char_1', disputeId: 'dp_1', status: 'CHARGEBACK_REPRESENTED_SUCCESSFULLY' },
};
const lost = (acceptedAsLost: boolean): ChargeEvent => ({
  type: 'DisputeLost',
  data: { chargeId: 'char_1', disputeId: 'dp_1', status: 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY', acceptedAsLost },
});

describe('charge decider: network outcomes, disputes and fraud warnings', () => {
  describe('announcing outcomes', () => {
    it('records the announced outcomes with the successful charge, in one decision', () => {
      spec([])
        .when(createAnswered(attempt, { expectedOutcomes: [disputeDue] }))
        .then([succeeded, expected(disputeDue)]);
    });

    it('records nothing more when nothing was announced', () => {
      spec([])
        .when(createAnswered(attempt, { expectedOutcomes: [] }))
        .then([succeeded]);
    });
  });

  describe('delivering a due outcome', () => {
    it('opens the announced dispute for the charge amount, as a new chargeback', () => {
      spec([succeeded, expected(disputeDue)])
        .when(deliver('dispute'))
        .then([opened]);
    });

    it('records nothing the second time (the job ran twice)', () => {
      spec([succeeded, expected(disputeDue), opened])
        .when(deliver('dispute'))
        .then([]);
    });

    it('records nothing for an outcome that was never announced', () => {
      spec([succeeded]).when(deliver('dispute')).then([]);
      spec([succeeded, expected(disputeDue)])
        .when(deliver('fraud_warning'))
        .then([]);
    });

    it('delivers the fraud warning with its verdict, once; actionable while the charge can be refunded', () => {
      const received: ChargeEvent = {
        type: 'FraudWarningReceived',
        data: {
          chargeId: 'char_1',
          fraudWarningId: 'fw_1',
          fraudDetails: { status: 'fraudulent', score: 95 },
          actionable: true,
        },
      };
      spec([succeeded, expected(warningDue)])
        .when(deliver('fraud_warning'))
        .then([received]);
      spec([succeeded, expected(warningDue), received])
        .when(deliver('fraud_warning'))
        .then([]);
    });

    it('a fraud warning on a fully refunded charge is not actionable', () => {
      const refunded: ChargeEvent[] = [
        {
          type: 'RefundRequested',
          data: { chargeId: 'char_1', refundId: 're_1', amount: 2500, currency: 'EUR', reason: null, metadata: {} },
        },
        { type: 'RefundSettled', data: { chargeId: 'char_1', refundId: 're_1', status: 'successful' } },
      ];
      spec([succeeded, expected(warningDue), ...refunded])
        .when(deliver('fraud_warning'))
        .then([
          {
            type: 'FraudWarningReceived',
            data: {
              chargeId: 'char_1',
              fraudWarningId: 'fw_1',
              fraudDetails: { status: 'fraudulent', score: 95 },
              actionable: false,
            },
          },
        ]);
    });

    it('decides a contested dispute as the network announced: won, or lost (not accepted)', () => {
      spec([succeeded, expected(disputeDue), opened, submitted, expected(decisionDue('won'))])
        .when(deliver('dispute_decision'))
        .then([won]);
      spec([succeeded, expected(disputeDue), opened, submitted, expected(decisionDue('lost'))])
        .when(deliver('dispute_decision'))
        .then([lost(false)]);
    });

    it('records no decision twice, nor for a dispute accepted as lost meanwhile', () => {
      spec([succeeded, expected(disputeDue), opened, submitted, expected(decisionDue('won')), won])
        .when(deliver('dispute_decision'))
        .then([]);
      spec([succeeded, expected(disputeDue), opened, submitted, expected(decisionDue('won')), lost(true)])
        .when(deliver('dispute_decision'))
        .then([]);
    });

    it('refuses a charge that does not exist', () => {
      spec([]).when(deliver('dispute')).thenThrows(NotFoundError);
    });
  });

  describe('contesting a dispute', () => {
    it('records the evidence and the decision the network will report', () => {
      spec([succeeded, expected(disputeDue), opened])
        .when(submit('won'))
        .then([
          {
            type: 'DisputeEvidenceSubmitted',
            data: {
              chargeId: 'char_1',
              disputeId: 'dp_1',
              evidence: { customerName: 'Jane Doe', uncategorizedText: 'winning_evidence' },
            },
          },
          expected(decisionDue('won')),
        ]);
    });

    it('records only the evidence when no decision is announced (a live processor reports its own)', () => {
      spec([succeeded, opened])
        .when({
          type: 'SubmitDisputeEvidence',
          chargeId: 'char_1',
          disputeId: 'dp_1',
          evidence: { customerName: 'Jane Doe', uncategorizedText: 'winning_evidence' },
          decision: null,
        })
        .then([
          {
            type: 'DisputeEvidenceSubmitted',
            data: {
              chargeId: 'char_1',
              disputeId: 'dp_1',
              evidence: { customerName: 'Jane Doe', uncategorizedText: 'winning_evidence' },
            },
          },
        ]);
    });

    it('takes evidence once: the dispute is then under review', () => {
      spec([succeeded, expected(disputeDue), opened, submitted])
        .when(submit('won'))
        .thenThrows(InvalidRequestError, /already been submitted/);
    });

    it('refuses evidence for a closed dispute, or a dispute the charge does not have', () => {
      spec([succeeded, expected(disputeDue), opened, lost(true)])
        .when(submit('won'))
        .thenThrows(InvalidRequestError, /already been closed/);
      spec([succeeded])
        .when(submit('won'))
        .thenThrows(NotFoundError, /Dispute 'dp_1'/);
      spec([])
        .when(submit('won'))
        .thenThrows(NotFoundError, /Dispute 'dp_1'/);
    });
  });

  describe('accepting a dispute as lost', () => {
    it('closes an open dispute, contested or not', () => {
      spec([succeeded, expected(disputeDue), opened])
        .when({ type: 'CloseDispute', chargeId: 'char_1', disputeId: 'dp_1' })
        .then([lost(true)]);
      spec([succeeded, expected(disputeDue), opened, submitted])
        .when({ type: 'CloseDispute', chargeId: 'char_1', disputeId: 'dp_1' })
        .then([lost(true)]);
    });

    it('refuses to close a dispute twice, or one already decided', () => {
      spec([succeeded, expected(disputeDue), opened, lost(true)])
        .when({ type: 'CloseDispute', chargeId: 'char_1', disputeId: 'dp_1' })
        .thenThrows(InvalidRequestError, /already been closed/);
      spec([succeeded, expected(disputeDue), opened, submitted, won])
        .when({ type: 'CloseDispute', chargeId: 'char_1', disputeId: 'dp_1' })
        .thenThrows(InvalidRequestError, /already been closed/);
    });
  });

  describe('retrieval requests', () => {
    const retrievalDue: NetworkOutcomeDue = { ...disputeDue, reason: 'UNRECOGNIZED', stage: 'retrieval_request' };
    const requested: ChargeEvent = {
      type: 'DisputeOpened',
      data: {
        chargeId: 'char_1',
        disputeId: 'dp_1',
        amount: 2500,
        currency: 'EUR',
        reason: 'UNRECOGNIZED',
        status: 'RETRIEVAL_REQUEST_NEW',
      },
    };
    const answer: ChargeCommand = {
      type: 'SubmitDisputeEvidence',
      chargeId: 'char_1',
      disputeId: 'dp_1',
      evidence: { receipt: 'file_1' },
      decision: null,
    };
    const answered: ChargeEvent = {
      type: 'DisputeEvidenceSubmitted',
      data: {
        chargeId: 'char_1',
        disputeId: 'dp_1',
        evidence: { receipt: 'file_1' },
        status: 'RETRIEVAL_REQUEST_REPRESENTED',
      },
    };

    it('opens an announced retrieval request with its reason, as RETRIEVAL_REQUEST_NEW', () => {
      spec([succeeded, expected(retrievalDue)])
        .when(deliver('dispute'))
        .then([requested]);
    });

    it('a dispute announced without a stage (recorded before retrieval requests) is a chargeback', () => {
      spec([succeeded, expected(disputeDue)])
        .when(deliver('dispute'))
        .then([opened]);
    });

    it('answers it with the documents: RETRIEVAL_REQUEST_REPRESENTED, and no decision follows', () => {
      spec([succeeded, expected(retrievalDue), requested])
        .when(answer)
        .then([answered]);
    });

    it('takes no second answer, and cannot be closed once answered', () => {
      spec([succeeded, expected(retrievalDue), requested, answered])
        .when(answer)
        .thenThrows(InvalidRequestError, /already been answered/);
      spec([succeeded, expected(retrievalDue), requested, answered])
        .when({ type: 'CloseDispute', chargeId: 'char_1', disputeId: 'dp_1' })
        .thenThrows(InvalidRequestError, /already been answered/);
    });

    it('accepted as lost before an answer: lost, and its funds are withdrawn only now', () => {
      spec([succeeded, expected(retrievalDue), requested])
        .when({ type: 'CloseDispute', chargeId: 'char_1', disputeId: 'dp_1' })
        .then([
          {
            type: 'DisputeLost',
            data: {
              chargeId: 'char_1',
              disputeId: 'dp_1',
              status: 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY',
              acceptedAsLost: true,
              fundsWithdrawn: true,
            },
          },
        ]);
    });

    it('withdraws nothing: the charge can still be refunded while it is open or answered', () => {
      const refund: ChargeCommand = {
        type: 'RequestRefund',
        chargeId: 'char_1',
        refundId: 're_1',
        reason: null,
        metadata: {},
      };
      for (const history of [
        [succeeded, expected(retrievalDue), requested],
        [succeeded, expected(retrievalDue), requested, answered],
      ])
        spec(history)
          .when(refund)
          .then([
            {
              type: 'RefundRequested',
              data: { chargeId: 'char_1', refundId: 're_1', amount: 2500, currency: 'EUR', reason: null, metadata: {} },
            },
          ]);
    });
  });

  describe('refunds after a dispute', () => {
    const refund = (amount?: number): ChargeCommand => ({
      type: 'RequestRefund',
      chargeId: 'char_1',
      refundId: 're_1',
      ...(amount !== undefined ? { amount } : {}),
      reason: null,
      metadata: {},
    });
    const refunded = (amount: number): ChargeEvent => ({
      type: 'RefundRequested',
      data: { chargeId: 'char_1', refundId: 're_1', amount, currency: 'EUR', reason: null, metadata: {} },
    });

    it('refuses a refund while a chargeback is open, and once it is lost: the amount was withdrawn', () => {
      const reason = /its dispute is open or lost, and the disputed amount has been withdrawn by the chargeback/;
      spec([succeeded, expected(disputeDue), opened])
        .when(refund())
        .thenThrows(InvalidRequestError, reason);
      spec([succeeded, expected(disputeDue), opened, submitted])
        .when(refund(100))
        .thenThrows(InvalidRequestError, reason);
      spec([succeeded, expected(disputeDue), opened, lost(false)])
        .when(refund(1))
        .thenThrows(InvalidRequestError, reason);
      spec([succeeded, expected(disputeDue), opened, lost(true)])
        .when(refund())
        .thenThrows(InvalidRequestError, reason);
    });

    it('allows refunds again once the dispute is won', () => {
      spec([succeeded, expected(disputeDue), opened, submitted, won])
        .when(refund())
        .then([refunded(2500)]);
    });
  });
});
