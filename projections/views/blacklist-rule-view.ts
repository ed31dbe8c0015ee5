import type { BlacklistRuleEvent } from '../../packages/domain/blacklist/blacklist-events.ts';
import type { BlacklistRuleCondition } from '../../packages/domain/blacklist/blacklist-rule.ts';
import { occurredAtSeconds, tenantFields, type TenantScope } from '../event-time.ts';
import { objectView, fromEventAlone } from './object-view.ts';

/** `{ id, created, objectType, ruleType, <attributes of the type>, deleted? }` (spec: Blacklist rule). */
export type BlacklistRuleObject = {
  id: string;
  created: number;
  objectType: 'blacklistRule';
  deleted?: true;
} & BlacklistRuleCondition;

export type BlacklistRuleDoc = BlacklistRuleObject & TenantScope & { _deleted: boolean };

export const blacklistRuleView = objectView<BlacklistRuleDoc, BlacklistRuleEvent>({
  objectId: (event) => event.data.ruleId,
  on: {
    BlacklistRuleCreated: fromEventAlone((event) => {
      const { ruleId, ...condition } = event.data;
      return {
        id: ruleId,
        created: occurredAtSeconds(event),
        objectType: 'blacklistRule',
        ...condition,
        ...tenantFields(event),
        _deleted: false,
      };
    }),
    // Soft delete: still readable, with deleted: true.
    BlacklistRuleDeleted: (current) => current && { ...current, deleted: true, _deleted: true },
  },
});
