import { expect } from 'chai';
import type { RecordedEvent } from '../../../packages/eventstore/event-store.ts';
import type { ProjectionTransaction } from '../../../packages/projection-runtime/projection.ts';
import {
  collectionName,
  type ReadModelCollection,
} from '../../../packages/projection-runtime/read-model-collection.ts';
import type { Document } from '../../../packages/readstore/document-store.ts';
import { customersCollection, customersProjection } from '../../../projections/customers-projection.ts';
import { customerView } from '../../../projections/views/customer-view.ts';
import { cardAdded, customerCreated } from './fixtures.ts';

/** A projection's transaction over documents in memory, counting the stored objects it is asked for. */
class CountingTransaction implements ProjectionTransaction {
  readonly documents = new Map<string, Document>();
  reads = 0;

  get<T extends Document>(collection: ReadModelCollection<T> | string, id: string): Promise<T | null> {
    this.reads++;
    return Promise.resolve((this.documents.get(`${collectionName(collection)}/${id}`) as T | undefined) ?? null);
  }

  put<T extends Document>(collection: ReadModelCollection<T> | string, doc: T): void {
    this.documents.set(`${collectionName(collection)}/${doc.id}`, doc);
  }

  delete(collection: ReadModelCollection<Document> | string, id: string): void {
    this.documents.delete(`${collectionName(collection)}/${id}`);
  }
}

let position = 0;
const recorded = (event: { type: string; data: object }): RecordedEvent => {
  position++;
  return {
    id: `evt_${position}`,
    streamId: 'customer-cust_1',
    revision: position - 1,
    position,
    type: event.type,
    data: event.data as Record<string, unknown>,
    metadata: { accountId: 'acct_1', mode: 'test', occurredAt: '2026-01-05T10:00:00.000Z' },
    recordedAt: new Date('2026-01-05T10:00:00.000Z'),
  };
};

describe('objects rendered from their event alone', () => {
  it('a view projection reads no stored object for the event that creates it, and reads it for a change', async () => {
    const tx = new CountingTransaction();
    await customersProjection.apply(recorded(customerCreated()), tx);
    expect(tx.reads, 'reads for the creating event').to.equal(0);
    expect(tx.documents.get(`${collectionName(customersCollection)}/cust_1`)).to.include({ email: 'ann@example.com' });

    await customersProjection.apply(recorded(cardAdded('card_1')), tx);
    expect(tx.reads, 'reads for a change').to.equal(1);
    expect(tx.documents.get(`${collectionName(customersCollection)}/cust_1`)).to.have.nested.property(
      'cards[0].id',
      'card_1',
    );
  });

  it('renders the same object whatever was stored before the event (the read it skips could not change it)', () => {
    const created = recorded(customerCreated()) as Parameters<typeof customerView.fold>[1];
    const fresh = customerView.fold(null, created)!;
    const withCard = customerView.fold(
      fresh,
      recorded(cardAdded('card_1')) as Parameters<typeof customerView.fold>[1],
    )!;
    expect(customerView.foldsCurrent(created)).to.equal(false);
    expect(customerView.fold(withCard, created)).to.deep.equal(fresh);
  });
});
