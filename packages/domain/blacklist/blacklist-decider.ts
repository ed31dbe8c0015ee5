import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError } from '../errors.ts';
import type { BlacklistRuleEvent } from './blacklist-events.ts';
import type { BlacklistRule } from './blacklist-rule.ts';
import { evolveBlacklistRule, initialBlacklistRuleState, type BlacklistRuleState } from './blacklist-state.ts';

/**
 * The rule arrives complete: which attributes a type needs, and turning a card number into its
 * fingerprint, are settled before deciding (the fingerprint key is I/O).
 */
export type BlacklistRuleCommand =
  { type: 'CreateBlacklistRule'; rule: BlacklistRule } | { type: 'DeleteBlacklistRule'; ruleId: string };

export const blacklistRuleDecider: Decider<BlacklistRuleCommand, BlacklistRuleEvent, BlacklistRuleState> = {
  initialState: initialBlacklistRuleState,
  evolve: evolveBlacklistRule,
  decide(command, state) {
    switch (command.type) {
      case 'CreateBlacklistRule':
        if (state.status !== 'none')
          throw new InvalidRequestError(`Blacklist rule '${command.rule.ruleId}' already exists`);
        return [{ type: 'BlacklistRuleCreated', data: { ...command.rule } }];
      case 'DeleteBlacklistRule':
        if (state.status === 'none') throw new NotFoundError('Blacklist rule', command.ruleId);
        if (state.status === 'deleted')
          throw new InvalidRequestError(`Blacklist rule '${command.ruleId}' is already deleted`);
        return [{ type: 'BlacklistRuleDeleted', data: { ruleId: command.ruleId } }];
    }
  },
};
