import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AggregateStore } from '../../../packages/commands/aggregate-store.ts';
import type { CommandContext } from '../../../packages/commands/command-context.ts';
import { customerDecider } from '../../../packages/domain/customer/customer-decider.ts';
import { customerStream } from '../../../packages/domain/customer/customer-events.ts';
import { tokenDecider } from '../../../packages/domain/token/token-decider.ts';
import { tokenStream } from '../../../packages/domain/token/token-events.ts';
import type { EventMetadata } from '../../../packages/eventstore/event-store.ts';
import { SqliteEventStore } from '../../../packages/eventstore/sqlite-event-store.ts';
import { physicalCollectionName } from '../../../packages/projection-runtime/projection.ts';
import { ProjectionRunner } from '../../../packages/projection-runtime/projection-runner.ts';
import { SqliteDocumentStore } from '../../../packages/readstore/sqlite-document-store.ts';
import { cardsProjection } from '../../../projections/cards-projection.ts';
import { tokensProjection } from '../../../projections/tokens-projection.ts';
import type { CardDoc } from '../../../projections/views/card-view.ts';
import type { TokenDoc } from '../../../projections/views/token-view.ts';
import { noCardAddress } from '../domain/card-snapshot-fixture.ts';
import { showStream } from '../../../services/cli/show-stream.ts';

/** A card exactly as version 1 events recorded it: the expiry parsed into numbers. */
const versionOneCard = {
  first6: '424242',
  last4: '4242',
  fingerprint: 'fp_old',
  vaultRef: 'vault_old',
  brand: 'Visa',
  type: 'Credit Card',
  country: 'US',
  issuer: null,
  expMonth: 5,
  expYear: 2031,
  cardholderName: 'Old Shape',
  ...noCardAddress,
  fraudCheckData: null,
};

/** Metadata as recorded before versions were kept: no `schemaVersion`. */
const versionOneMetadata: EventMetadata = {
  accountId: 'acct_1',
  mode: 'test',
  actor: 'key_old',
  requestId: 'req_old',
  occurredAt: '2026-01-02T03:04:05.000Z',
};

const context: CommandContext = {
  accountId: 'acct_1',
  mode: 'test',
  actor: 'key_new',
  requestId: 'req_new',
  now: () => new Date('2026-06-01T00:00:00.000Z'),
};

describe('replaying card events stored in the version 1 shape (expiry as numbers)', () => {
  let dir: string;
  let events: SqliteEventStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'upcasting-'));
    events = new SqliteEventStore(join(dir, 'events.db'));
    // Written straight into the store, as the service recorded them before version 2.
    await events.appendToStream(
      customerStream('cust_old'),
      [
        {
          id: randomUUID(),
          type: 'CustomerCreated',
          data: { customerId: 'cust_old', email: 'old@example.com', description: null, metadata: {} },
          metadata: versionOneMetadata,
        },
        {
          id: randomUUID(),
          type: 'CardAdded',
          data: {
            customerId: 'cust_old',
            cardId: 'card_old',
            card: versionOneCard,
            source: { kind: 'details' },
            merchantAccountId: null,
          },
          metadata: versionOneMetadata,
        },
        {
          id: randomUUID(),
          type: 'CardUpdated',
          data: { customerId: 'cust_old', cardId: 'card_old', expMonth: 7, expYear: 2032 },
          metadata: versionOneMetadata,
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await events.appendToStream(
      tokenStream('tok_old'),
      [
        {
          id: randomUUID(),
          type: 'TokenCreated',
          data: { tokenId: 'tok_old', card: versionOneCard, expiresAt: '2026-01-02T04:04:05.000Z' },
          metadata: versionOneMetadata,
        },
      ],
      { expectedRevision: 'no_stream' },
    );
  });

  afterEach(async () => {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads aggregates with the expiry as text, in the current shape', async () => {
    const aggregates = new AggregateStore(events);
    const customer = await aggregates.load(customerDecider, customerStream('cust_old'), context);
    expect(customer.state.status).to.equal('active');
    const [saved] = customer.state.status === 'active' ? customer.state.cards : [];
    expect(saved!.card).to.include({ expMonth: '7', expYear: '2032', cardholderName: 'Old Shape' });

    const token = await aggregates.load(tokenDecider, tokenStream('tok_old'), context);
    expect(token.state.status === 'unused' && token.state.card).to.include({ expMonth: '5', expYear: '2031' });
  });

  it('records new events with the current schema version beside the old ones', async () => {
    const aggregates = new AggregateStore(events);
    await aggregates.execute(
      customerDecider,
      customerStream('cust_old'),
      { type: 'UpdateCard', customerId: 'cust_old', cardId: 'card_old', changes: { expMonth: '08' } },
      context,
    );
    const recorded = await events.readStream(customerStream('cust_old'));
    expect(recorded.map((event) => event.metadata.schemaVersion)).to.deep.equal([undefined, undefined, undefined, 2]);
    expect(recorded[3]!.data).to.deep.equal({ customerId: 'cust_old', cardId: 'card_old', expMonth: '08' });
    const customer = await aggregates.load(customerDecider, customerStream('cust_old'), context);
    const [saved] = customer.state.status === 'active' ? customer.state.cards : [];
    expect(saved!.card).to.include({ expMonth: '08', expYear: '2032' });
  });

  /** Runs the cards and tokens projections over the whole log; reads one document of each. */
  async function projected(cardId: string, tokenId: string): Promise<{ card: CardDoc | null; token: TokenDoc | null }> {
    const readStore = new SqliteDocumentStore(join(dir, 'read.db'));
    const runner = new ProjectionRunner(events, readStore, [cardsProjection, tokensProjection]);
    const head = await events.headPosition();
    const caughtUp = new Promise<void>((resolve) => {
      const reached = new Set<string>();
      runner.on('committed', (projection, _generation, position) => {
        if (position >= head) reached.add(projection);
        if (reached.size === 2) resolve();
      });
    });
    try {
      await runner.start();
      await caughtUp;
      const physical = (name: string) => physicalCollectionName(name, runner.checkpoints().get(name)!.generation);
      return {
        card: await readStore.collection<CardDoc>(physical('cards')).get(cardId),
        token: await readStore.collection<TokenDoc>(physical('tokens')).get(tokenId),
      };
    } finally {
      await runner.stop();
      await readStore.close();
    }
  }

  it('projects the old events into the documents the API has always answered', async () => {
    const { card, token } = await projected('card_old', 'tok_old');
    expect(card).to.include({ expMonth: '7', expYear: '2032', cardholderName: 'Old Shape' });
    expect(token).to.include({ expMonth: '5', expYear: '2031' });
    // The card the token keeps for saving later is in the current shape too.
    expect(token!._card).to.include({ expMonth: '5', expYear: '2031' });
  });

  it('answers the expiry of current events as the client sent it: the month as sent, a two-digit year in four digits', async () => {
    const asSent = { ...versionOneCard, expMonth: '05', expYear: '31' };
    const metadata = { ...versionOneMetadata, schemaVersion: 2 };
    await events.appendToStream(
      tokenStream('tok_new'),
      [
        {
          id: randomUUID(),
          type: 'TokenCreated',
          data: { tokenId: 'tok_new', card: asSent, expiresAt: '2026-01-02T04:04:05.000Z' },
          metadata,
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await events.appendToStream(
      customerStream('cust_old'),
      [
        {
          id: randomUUID(),
          type: 'CardUpdated',
          data: { customerId: 'cust_old', cardId: 'card_old', expMonth: '09', expYear: '33' },
          metadata,
        },
      ],
      { expectedRevision: 2 },
    );
    const { card, token } = await projected('card_old', 'tok_new');
    expect(card).to.include({ expMonth: '09', expYear: '2033' });
    expect(token).to.include({ expMonth: '05', expYear: '2031' });
    expect(token!._card).to.include({ expMonth: '05', expYear: '31' });
  });

  it('shows auditors the events in the current shape, with their version', async () => {
    const lines: string[] = [];
    expect(await showStream(events, 'tok_old', true, (line) => lines.push(line))).to.equal(true);
    const [row] = lines.map((line) => JSON.parse(line) as { schemaVersion: number; data: { card: object } });
    expect(row!.schemaVersion).to.equal(2);
    expect(row!.data.card).to.include({ expMonth: '5', expYear: '2031' });
  });
});
