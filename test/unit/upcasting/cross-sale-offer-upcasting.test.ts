import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AggregateStore } from '../../../packages/commands/aggregate-store.ts';
import { crossSaleOfferDecider } from '../../../packages/domain/cross-sale-offer/cross-sale-offer-decider.ts';
import { crossSaleOfferStream } from '../../../packages/domain/cross-sale-offer/cross-sale-offer-events.ts';
import { eventUpcasters } from '../../../packages/domain/event-upcasters.ts';
import { SqliteEventStore } from '../../../packages/eventstore/sqlite-event-store.ts';
import { physicalCollectionName } from '../../../packages/projection-runtime/projection.ts';
import { ProjectionRunner } from '../../../packages/projection-runtime/projection-runner.ts';
import { SqliteDocumentStore } from '../../../packages/readstore/sqlite-document-store.ts';
import { crossSaleOffersProjection } from '../../../projections/cross-sale-offers-projection.ts';
import type { CrossSaleOfferDoc } from '../../../projections/views/cross-sale-offer-view.ts';

const tenant = { accountId: 'acct_1', mode: 'test' as const };

/** An offer as version 1 recorded it: a charge, and no `subscription` field. */
const versionOneOffer = {
  offerId: 'cso_old',
  charge: { amount: 900, currency: 'EUR', capture: true },
  template: 'text_only',
  title: 'Socks',
  description: null,
  imageId: null,
  companyName: null,
  companyLocation: null,
  termsAndConditionsUrl: null,
  visibleForAllPartners: false,
  partnerIds: [],
};

describe('replaying cross-sale offers stored before offers could define a subscription', () => {
  let dir: string;
  let events: SqliteEventStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'upcasting-offer-'));
    events = new SqliteEventStore(join(dir, 'events.db'));
    await events.appendToStream(
      crossSaleOfferStream('cso_old'),
      [
        {
          id: randomUUID(),
          type: 'CrossSaleOfferCreated',
          data: versionOneOffer,
          metadata: { ...tenant, actor: 'key_old', requestId: 'req_old', occurredAt: '2026-01-02T03:04:05.000Z' },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
  });

  afterEach(async () => {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records CrossSaleOfferCreated at version 2', () => {
    expect(eventUpcasters.currentVersion('CrossSaleOfferCreated')).to.equal(2);
  });

  it('loads a version 1 offer as a charge offer without a subscription, and projects it so', async () => {
    const offer = await new AggregateStore(events).load(crossSaleOfferDecider, crossSaleOfferStream('cso_old'), tenant);
    expect(offer.state).to.deep.include({ status: 'active', subscription: null, charge: versionOneOffer.charge });

    const readStore = new SqliteDocumentStore(join(dir, 'read.db'));
    const runner = new ProjectionRunner(events, readStore, [crossSaleOffersProjection]);
    const head = await events.headPosition();
    const caughtUp = new Promise<void>((resolve) => {
      runner.on('committed', (_projection, _generation, position) => {
        if (position >= head) resolve();
      });
    });
    try {
      await runner.start();
      await caughtUp;
      const generation = runner.checkpoints().get('crossSaleOffers')!.generation;
      const doc = await readStore
        .collection<CrossSaleOfferDoc>(physicalCollectionName('crossSaleOffers', generation))
        .get('cso_old');
      expect(doc).to.deep.include({ charge: versionOneOffer.charge, subscription: null });
    } finally {
      await runner.stop();
      await readStore.close();
    }
  });
});
