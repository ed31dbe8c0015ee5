import { blacklistRuleEventTypes, type BlacklistRuleEvent } from '../../packages/domain/blacklist/blacklist-events.ts';
import type { BlacklistRuleType } from '../../packages/domain/blacklist/blacklist-rule.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import type { ObjectView } from './object-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';

/** `{ id, created, objectType, ruleType, <attributes of the type>, deleted? }` plus scope fields. */
export interface BlacklistRuleDoc extends Document {
  objectType: 'blacklistRule';
  ruleType: BlacklistRuleType;
  deleted?: true;
  _accountId: string;
  _mode: Mode;
  _deleted: boolean;
}

export const blacklistRuleView: ObjectView<BlacklistRuleDoc> = {
  eventTypes: new Set(blacklistRuleEventTypes),
  objectId: (event) => (event.data as { ruleId?: string }).ruleId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & BlacklistRuleEvent;
    switch (event.type) {
      case 'BlacklistRuleCreated': {
        const { ruleId, ...condition } = event.data;
        return {
          id: ruleId,
          created: occurredAtSeconds(recorded),
          objectType: 'blacklistRule',
          ...condition,
          ...tenantFields(recorded),
          _deleted: false,
        };
      }
      case 'BlacklistRuleDeleted':
        // Soft delete: still readable, with deleted: true.
        return current ? { ...current, deleted: true, _deleted: true } : current;
      default:
        return current;
    }
  },
};
