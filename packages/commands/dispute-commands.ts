import { assertEvidenceAccepted } from '../domain/charge/charge-dispute-decider.ts';
import { chargeDecider } from '../domain/charge/charge-decider.ts';
import { chargeStream } from '../domain/charge/charge-events.ts';
import type { DisputeEvidence } from '../domain/charge/dispute-events.ts';
import type { CardNetwork } from '../network/card-network.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';

/**
 * What a merchant does about a dispute: contest it with evidence, or accept it as lost. A dispute
 * lives in its charge's stream, so callers name both (the dispute read model gives the charge).
 */
export class DisputeCommands {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly network: CardNetwork,
  ) {}

  /**
   * Submits the evidence to the network (representment of a chargeback, or the documents a
   * retrieval request asks for), and records it once the network took it: refused or unanswered,
   * nothing is recorded. The simulator answers a chargeback with its decision and when it reports
   * it, recorded as a `dispute_decision` outcome the worker delivers; a live processor reports its
   * decision through its notifications instead.
   */
  async submitEvidence(
    chargeId: string,
    disputeId: string,
    evidence: DisputeEvidence,
    context: CommandContext,
  ): Promise<CommandOutcome> {
    const loaded = await this.aggregates.loadExisting(chargeDecider, chargeStream(chargeId), context, {
      objectName: 'Dispute',
      objectId: disputeId,
    });
    // Checked before the network is asked, and again by the decider under concurrency.
    const dispute = assertEvidenceAccepted(loaded.state, disputeId);
    if (loaded.state.status === 'none') throw new Error('unreachable: a disputed charge exists');
    const answer = await this.network.representDispute({
      accountId: context.accountId,
      mode: context.mode,
      transactionId: loaded.state.networkTransactionId ?? '',
      processorId: loaded.state.processorId ?? null,
      reference: disputeId,
      stage: dispute.status === 'RETRIEVAL_REQUEST_NEW' ? 'retrieval_request' : 'chargeback',
      evidence,
    });
    const decision = answer && {
      outcome: answer.outcome,
      dueAt: new Date(context.now().getTime() + answer.afterMs).toISOString(),
    };
    const result = await this.aggregates.execute(
      chargeDecider,
      chargeStream(chargeId),
      { type: 'SubmitDisputeEvidence', chargeId, disputeId, evidence, decision },
      context,
    );
    return { id: disputeId, position: result.position };
  }

  /** Accepts the dispute as lost: `acceptedAsLost`, status CHARGEBACK_REPRESENTED_UNSUCCESSFULLY. */
  async close(chargeId: string, disputeId: string, context: CommandContext): Promise<CommandOutcome> {
    const result = await this.aggregates.execute(
      chargeDecider,
      chargeStream(chargeId),
      { type: 'CloseDispute', chargeId, disputeId },
      context,
    );
    return { id: disputeId, position: result.position };
  }
}
