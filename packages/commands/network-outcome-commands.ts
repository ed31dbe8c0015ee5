import { chargeDecider } from '../domain/charge/charge-decider.ts';
import { chargeStream, disputeResource, fraudWarningResource } from '../domain/charge/charge-events.ts';
import type { NetworkOutcomeKind } from '../domain/charge/network-outcome-events.ts';
import { newId } from '../ids/object-id.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';

/**
 * Delivers what the card network announced for later about a charge (a dispute, a fraud warning,
 * a dispute decision), once due. Run by the worker; idempotent: delivering an outcome a second
 * time (a duplicated job, a rescan before the projection caught up) records nothing.
 */
export class NetworkOutcomeCommands {
  constructor(private readonly aggregates: AggregateStore) {}

  async deliver(chargeId: string, kind: NetworkOutcomeKind, context: CommandContext): Promise<CommandOutcome> {
    const result = await this.aggregates.execute(
      chargeDecider,
      chargeStream(chargeId),
      {
        type: 'DeliverNetworkOutcome',
        chargeId,
        kind,
        disputeId: newId(disputeResource),
        fraudWarningId: newId(fraudWarningResource),
      },
      context,
    );
    return { id: chargeId, position: result.position };
  }
}
