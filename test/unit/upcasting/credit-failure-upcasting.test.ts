import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AggregateStore } from '../../../packages/commands/aggregate-store.ts';
import type { CommandContext } from '../../../packages/commands/command-context.ts';
import { creditDecider } from '../../../packages/domain/credit/credit-decider.ts';
import { creditStream } from '../../../packages/domain/credit/credit-events.ts';
import { eventUpcasters } from '../../../packages/domain/event-upcasters.ts';
import type { EventMetadata } from '../../../packages/eventstore/event-store.ts';
import { SqliteEventStore } from '../../../packages/eventstore/sqlite-event-store.ts';
import { cardSnapshot } from '../domain/card-snapshot-fixture.ts';

const metadataAt = (schemaVersion: number | undefined): EventMetadata => ({
  accountId: 'acct_1',
  mode: 'test',
  actor: 'key_old',
  requestId: 'req_old',
  occurredAt: '2026-01-02T03:04:05.000Z',
  ...(schemaVersion === undefined ? {} : { schemaVersion }),
});

const context: CommandContext = {
  accountId: 'acct_1',
  mode: 'test',
  actor: 'key_new',
  requestId: 'req_new',
  now: () => new Date('2026-06-01T00:00:00.000Z'),
};

/** A blacklisted credit as versions 1 and 2 recorded it: no `blacklistRuleId`. */
function failedCredit(creditId: string, expiry: { expMonth: unknown; expYear: unknown }) {
  return {
    creditId,
    amount: 700,
    currency: 'EUR',
    description: null,
    customerId: null,
    cardId: 'card_old',
    card: { ...cardSnapshot, ...expiry },
    cardSource: { kind: 'details' },
    metadata: {},
    failureCode: 'blacklisted',
    failureMessage: 'The credit was blocked by a blacklist rule.',
    failureIssuerDeclineCode: null,
  };
}

describe('replaying failed credits stored before the blocking rule was recorded', () => {
  let dir: string;
  let events: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'upcasting-credit-'));
    events = new SqliteEventStore(join(dir, 'events.db'));
  });

  afterEach(async () => {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function stored(
    creditId: string,
    data: Record<string, unknown>,
    schemaVersion: number | undefined,
  ): Promise<void> {
    await events.appendToStream(
      creditStream(creditId),
      [{ id: randomUUID(), type: 'CreditFailed', data, metadata: metadataAt(schemaVersion) }],
      { expectedRevision: 'no_stream' },
    );
  }

  it('records CreditFailed at version 3', () => {
    expect(eventUpcasters.currentVersion('CreditFailed')).to.equal(3);
  });

  it('loads a version 2 failure with the rule unknown (null), every other field as recorded', async () => {
    await stored('cr_v2', failedCredit('cr_v2', { expMonth: '05', expYear: '2031' }), 2);
    const credit = await new AggregateStore(events).load(creditDecider, creditStream('cr_v2'), context);
    expect(credit.state.status).to.equal('failed');
    if (credit.state.status !== 'failed') return;
    expect(credit.state.failure).to.deep.equal({
      failureCode: 'blacklisted',
      failureMessage: 'The credit was blocked by a blacklist rule.',
      failureIssuerDeclineCode: null,
      blacklistRuleId: null,
    });
    expect(credit.state.card).to.include({ expMonth: '05', expYear: '2031' });
  });

  it('takes a version 1 failure through both steps: expiry as text, then the rule', async () => {
    await stored('cr_v1', failedCredit('cr_v1', { expMonth: 5, expYear: 2031 }), undefined);
    const credit = await new AggregateStore(events).load(creditDecider, creditStream('cr_v1'), context);
    if (credit.state.status !== 'failed') expect.fail(`loaded as ${credit.state.status}`);
    expect(credit.state.failure?.blacklistRuleId).to.equal(null);
    expect(credit.state.card).to.include({ expMonth: '5', expYear: '2031' });
  });

  it('keeps the rule of a current failure', async () => {
    await stored(
      'cr_v3',
      { ...failedCredit('cr_v3', { expMonth: '05', expYear: '2031' }), blacklistRuleId: 'blr_1' },
      3,
    );
    const credit = await new AggregateStore(events).load(creditDecider, creditStream('cr_v3'), context);
    if (credit.state.status !== 'failed') expect.fail(`loaded as ${credit.state.status}`);
    expect(credit.state.failure?.blacklistRuleId).to.equal('blr_1');
  });
});
