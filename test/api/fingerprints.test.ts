import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.ts';
import { cardDetails, createOtherAccount, type ApiError, type Customer, type Token } from '../support/payments.ts';
import { useService } from '../support/use-service.ts';

const NUMBER = '5555555555554444';

describe('card fingerprints per account and mode', function () {
  this.timeout(60_000);
  const { api, service } = useService();

  const tokenFingerprint = async (client: ApiClient): Promise<string> => {
    const token = await client.post<Token>('/tokens', { json: cardDetails(NUMBER) });
    expect(token.status).to.equal(200);
    return token.body.fingerprint;
  };

  it('gives one card the same fingerprint within an account and mode, and unrelated ones elsewhere', async () => {
    const inTest = await tokenFingerprint(api);
    expect(await tokenFingerprint(api)).to.equal(inTest);
    const customer = await api.post<Customer>('/customers', {
      json: { email: 'fp@example.com', card: cardDetails(NUMBER) },
    });
    expect(customer.body.cards[0]!.fingerprint).to.equal(inTest);

    const inLive = await tokenFingerprint(api.withKey(service.keys!.liveSecretKey));
    const other = await createOtherAccount(api, service.dataDir, 'Other shop');
    const inOtherAccount = await tokenFingerprint(other.api);
    expect(new Set([inTest, inLive, inOtherAccount]).size).to.equal(3);
  });

  it('blocks the card with a rule made from its fingerprint or its number, in that account and mode only', async () => {
    const fingerprint = await tokenFingerprint(api);
    const rule = await api.post<{ id: string; fingerprint: string }>('/blacklist', {
      json: { ruleType: 'fingerprint', fingerprint },
    });
    const fromNumber = await api.post<{ fingerprint: string }>('/blacklist', {
      json: { ruleType: 'fingerprint', cardNumber: NUMBER },
    });
    expect(fromNumber.body.fingerprint).to.equal(fingerprint);
    const blocked = await api.post<ApiError>('/charges', {
      json: { amount: 100, currency: 'EUR', card: cardDetails(NUMBER) },
    });
    expect(blocked.status).to.equal(402);
    expect(blocked.body.error.code).to.equal('blacklisted');

    const other = await createOtherAccount(api, service.dataDir, 'Unrelated shop');
    // Another account knowing this account's fingerprint cannot block (or recognise) the card by it.
    await other.api.post('/blacklist', { json: { ruleType: 'fingerprint', fingerprint } });
    const elsewhere = await other.api.post('/charges', {
      json: { amount: 100, currency: 'EUR', card: cardDetails(NUMBER) },
    });
    expect(elsewhere.status).to.equal(200);
    expect(rule.status).to.equal(200);
  });
});
