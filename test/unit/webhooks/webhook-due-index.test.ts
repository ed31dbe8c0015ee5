import { expect } from 'chai';
import { SqliteDocumentStore } from '../../../packages/readstore/sqlite-document-store.ts';
import { dueBy } from '../../../projections/due-list.ts';
import { webhookDueDoc, type WebhookDueDoc } from '../../../projections/webhook-due-deliveries.ts';

describe('webhook due index (webhook_due)', () => {
  const second = 1_700_000_000_000;
  const due = (deliveryId: string, dueAtMs: number, order: number): WebhookDueDoc =>
    webhookDueDoc(
      {
        deliveryId,
        endpointId: 'we_1',
        eventId: `event_${deliveryId}`,
        eventType: 'CHARGE_SUCCEEDED',
        attempt: 1,
        dueAtMs,
        accountId: 'acct_1',
        mode: 'test',
      },
      order,
    );

  it('lists what is due by a time, earliest first, in log order within a second, with a plain list query', async () => {
    const store = new SqliteDocumentStore(':memory:');
    try {
      const index = store.collection<WebhookDueDoc>('webhook_due');
      await index.put(due('later', second + 5_000, 1));
      await index.put(due('b', second + 200, 30));
      await index.put(due('a', second + 900, 20));
      await index.put(due('first', second - 60_000, 40));
      await index.put(due('future', second + 3_600_000, 2));

      const page = await index.list({ created: dueBy(second + 1_000), limit: 10 });
      expect(page.list.map((doc) => doc.deliveryId)).to.deep.equal(['first', 'a', 'b']);

      const bounded = await index.list({ created: dueBy(second + 10_000), limit: 2 });
      expect(bounded.list.map((doc) => doc.deliveryId)).to.deep.equal(['first', 'a']);
      expect(bounded.hasMore).to.equal(true);
    } finally {
      await store.close();
    }
  });
});
