import { blacklistRuleDecider } from '../domain/blacklist/blacklist-decider.ts';
import { blacklistRuleResource, blacklistRuleStream } from '../domain/blacklist/blacklist-events.ts';
import type { CardFingerprinter } from '../vault/card-fingerprint.ts';
import type { AggregateStore } from './aggregate-store.ts';
import { blacklistRuleFromInput, type CreateBlacklistRuleInput } from './blacklist-rule-input.ts';
import { createdObjectId, type CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';
import { tenantFingerprint } from '../vault/tenant-fingerprint.ts';

export type { CreateBlacklistRuleInput } from './blacklist-rule-input.ts';

/** Creates and deletes blacklist rules; a card number given for a rule is fingerprinted, never kept. */
export class BlacklistCommands {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly fingerprinter: CardFingerprinter,
  ) {}

  async create(input: CreateBlacklistRuleInput, context: CommandContext): Promise<CommandOutcome> {
    const ruleId = createdObjectId(blacklistRuleResource, context);
    const earlier = await this.aggregates.createdEarlier(blacklistRuleStream(ruleId), context);
    if (earlier !== undefined) return { id: ruleId, position: earlier };
    // A card number becomes the fingerprint this account and mode see for the card.
    const rule = blacklistRuleFromInput(ruleId, input, {
      fingerprint: (number) => tenantFingerprint(this.fingerprinter.fingerprint(number), context),
    });
    return this.aggregates.executeOn(
      blacklistRuleDecider,
      blacklistRuleStream,
      ruleId,
      { type: 'CreateBlacklistRule', rule },
      context,
    );
  }

  delete(ruleId: string, context: CommandContext): Promise<CommandOutcome> {
    return this.aggregates.executeOn(
      blacklistRuleDecider,
      blacklistRuleStream,
      ruleId,
      { type: 'DeleteBlacklistRule', ruleId },
      context,
    );
  }
}
