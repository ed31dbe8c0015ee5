import { blacklistRuleDecider } from '../../../packages/domain/blacklist/blacklist-decider.ts';
import type { BlacklistRuleEvent } from '../../../packages/domain/blacklist/blacklist-events.ts';
import type { BlacklistRule } from '../../../packages/domain/blacklist/blacklist-rule.ts';
import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(blacklistRuleDecider);
const rule: BlacklistRule = { ruleId: 'blr_1', ruleType: 'metadata', metadataKey: 'campaign', metadataValue: 'spam' };
const created: BlacklistRuleEvent = { type: 'BlacklistRuleCreated', data: { ...rule } };
const deleted: BlacklistRuleEvent = { type: 'BlacklistRuleDeleted', data: { ruleId: 'blr_1' } };

describe('blacklist rule decider', () => {
  it('creates a rule with its type and attributes', () => {
    spec([]).when({ type: 'CreateBlacklistRule', rule }).then([created]);
  });

  it('creates a fingerprint rule carrying only the fingerprint', () => {
    const fingerprintRule: BlacklistRule = { ruleId: 'blr_2', ruleType: 'fingerprint', fingerprint: 'fp_abc' };
    spec([])
      .when({ type: 'CreateBlacklistRule', rule: fingerprintRule })
      .then([
        { type: 'BlacklistRuleCreated', data: { ruleId: 'blr_2', ruleType: 'fingerprint', fingerprint: 'fp_abc' } },
      ]);
  });

  it('refuses to create the same rule twice', () => {
    spec([created])
      .when({ type: 'CreateBlacklistRule', rule })
      .thenThrows(InvalidRequestError, /already exists/);
  });

  it('deletes an existing rule', () => {
    spec([created]).when({ type: 'DeleteBlacklistRule', ruleId: 'blr_1' }).then([deleted]);
  });

  it('does not delete a rule that does not exist', () => {
    spec([]).when({ type: 'DeleteBlacklistRule', ruleId: 'blr_1' }).thenThrows(NotFoundError);
  });

  it('refuses to delete a rule twice', () => {
    spec([created, deleted])
      .when({ type: 'DeleteBlacklistRule', ruleId: 'blr_1' })
      .thenThrows(InvalidRequestError, /already deleted/);
  });

  it('does not create a rule again after it was deleted', () => {
    spec([created, deleted])
      .when({ type: 'CreateBlacklistRule', rule })
      .thenThrows(InvalidRequestError, /already exists/);
  });
});
