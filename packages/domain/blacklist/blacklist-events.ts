import { resourceIdentity, streamName } from '../resource-identity.ts';
import type { DomainEvent } from '../decider.ts';
import type { BlacklistRuleCondition } from './blacklist-rule.ts';
import { everyType } from '../event-types.ts';

export const blacklistRuleResource = resourceIdentity({ name: 'blacklistRule', idPrefix: 'blr', stream: 'own' });

/** Stream of one blacklist rule: `blacklistRule-<ruleId>`. */
export const blacklistRuleStream = (ruleId: string): string => streamName(blacklistRuleResource, ruleId);

/** The rule's type and its attributes; a card number is never here, only its fingerprint. */
export type BlacklistRuleCreated = DomainEvent<'BlacklistRuleCreated', { ruleId: string } & BlacklistRuleCondition>;

export type BlacklistRuleDeleted = DomainEvent<'BlacklistRuleDeleted', { ruleId: string }>;

export type BlacklistRuleEvent = BlacklistRuleCreated | BlacklistRuleDeleted;

export const blacklistRuleEventTypes = everyType<BlacklistRuleEvent>()([
  'BlacklistRuleCreated',
  'BlacklistRuleDeleted',
]);

/** Also here for callers that think of rules through their events; defined in blacklist-rule.ts. */
export type { BlacklistRule } from './blacklist-rule.ts';
