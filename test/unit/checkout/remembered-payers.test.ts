import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { SqliteDocumentStore } from '../../../packages/readstore/sqlite-document-store.ts';
import { containsCardNumber } from '../../../packages/network/card-numbers-in-text.ts';
import { RememberedPayers } from '../../../services/api/checkout/remembered-payers.ts';

describe('remembered payers', () => {
  const tenant = { accountId: 'acct_1', mode: 'test' as const };
  const now = new Date('2026-11-26T12:00:00Z');

  it('hands out grants that never read as a card number, so that checkout accepts every one', async () => {
    const store = new SqliteDocumentStore(':memory:');
    try {
      const payers = new RememberedPayers(store.collection('payers'), store.collection('uses'), randomBytes(32));
      // With the payer's id in hexadecimal, about one grant in a hundred held a run of digits that
      // passes for a card number, and checkout refused to pay with it.
      for (let i = 0; i < 2_000; i++) {
        const email = `payer-${i}@example.com`;
        await payers.remember(tenant, email, { customerId: `cust_${i}`, cardId: `card_${i}` }, now);
        const code = await payers.issueCode(tenant, email, now);
        const confirmed = await payers.confirm(tenant, email, code!, now);
        expect(containsCardNumber(confirmed!.grant), confirmed!.grant).to.equal(false);
        const redeemed = await payers.redeem(tenant, email, confirmed!.grant, now);
        expect(redeemed, email).to.deep.include({ customerId: `cust_${i}`, cardId: `card_${i}` });
      }
    } finally {
      await store.close();
    }
  });
});
