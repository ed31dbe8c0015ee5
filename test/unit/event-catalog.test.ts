import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { publicEventRules } from '../../projections/public-event-types.ts';
import { blacklistRuleEventTypes } from '../../packages/domain/blacklist/blacklist-events.ts';
import { chargeEventTypes } from '../../packages/domain/charge/charge-events.ts';
import { creditEventTypes } from '../../packages/domain/credit/credit-events.ts';
import { customerEventTypes } from '../../packages/domain/customer/customer-events.ts';
import { tokenEventTypes } from '../../packages/domain/token/token-events.ts';

const catalog = readFileSync(resolve(import.meta.dirname, '../../docs/events.md'), 'utf8');

describe('event catalog (docs/events.md)', () => {
  it('documents every domain event that produces public events, and the public types it produces', () => {
    for (const [domainType, rules] of Object.entries(publicEventRules)) {
      expect(catalog, domainType).to.include(`\`${domainType}\``);
      const sample = { data: { status: 'successful' }, metadata: {} } as never;
      const failedSample = { data: { status: 'failed' }, metadata: {} } as never;
      for (const rule of rules) {
        for (const type of [...rule.types(sample), ...rule.types(failedSample)]) expect(catalog, `${domainType} → ${type}`).to.include(`\`${type}\``);
      }
    }
  });

  it('documents every domain event of every aggregate', () => {
    const all = ['AccountCreated', ...customerEventTypes, ...tokenEventTypes, ...chargeEventTypes, ...creditEventTypes, ...blacklistRuleEventTypes];
    for (const type of all) expect(catalog, type).to.include(`| \`${type}\` |`);
  });
});
