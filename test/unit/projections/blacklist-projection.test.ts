import { expect } from 'chai';
import type { BlacklistRuleEvent } from '../../../packages/domain/blacklist/blacklist-events.ts';
import { blacklistProjection, blacklistRulesCollection } from '../../../projections/blacklist-projection.ts';
import { seconds } from './fixtures.ts';
import { inStream, projectionSpec, withoutInternals } from './projection-spec.ts';

const at = '2026-01-20T00:00:00Z';

describe('blacklist projection', () => {
  const spec = projectionSpec(blacklistProjection);

  it('renders each rule with the attributes of its type only, and soft-deletes', async () => {
    await spec().given(
      inStream('blacklistRule-blr_1')<BlacklistRuleEvent>(
        { type: 'BlacklistRuleCreated', data: { ruleId: 'blr_1', ruleType: 'fingerprint', fingerprint: 'fp_1' } },
        at,
      ),
      inStream('blacklistRule-blr_2')<BlacklistRuleEvent>({
        type: 'BlacklistRuleCreated',
        data: { ruleId: 'blr_2', ruleType: 'metadata', metadataKey: 'ip', metadataValue: '1.2.3.4' },
      }),
    );
    expect(withoutInternals((await spec().get(blacklistRulesCollection, 'blr_1'))!)).to.deep.equal({
      id: 'blr_1',
      created: seconds(at),
      objectType: 'blacklistRule',
      ruleType: 'fingerprint',
      fingerprint: 'fp_1',
    });
    await spec().given(
      inStream('blacklistRule-blr_1')<BlacklistRuleEvent>({ type: 'BlacklistRuleDeleted', data: { ruleId: 'blr_1' } }),
    );
    expect(await spec().get(blacklistRulesCollection, 'blr_1')).to.include({ deleted: true, _deleted: true });
    expect(withoutInternals((await spec().get(blacklistRulesCollection, 'blr_2'))!)).to.include({
      ruleType: 'metadata',
      metadataKey: 'ip',
      metadataValue: '1.2.3.4',
    });
    await spec().expectRebuildIdentical();
  });
});
