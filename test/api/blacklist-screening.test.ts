import { expect } from 'chai';
import { cardDetails, eventsOf, type ApiError, type Charge } from '../support/payments.ts';
import { useService } from '../support/use-service.ts';

type Rule = { id: string; fingerprint?: string };

/** Charge creation requests are screened against the account's live blacklist rules (spec: Blacklist rule). */
describe('charges screened against the blacklist', function () {
  this.timeout(60_000);
  const { api, service } = useService();

  async function expectBlocked(
    charge: Record<string, unknown>,
    ruleId: string,
    headers: Record<string, string> = {},
  ): Promise<void> {
    const response = await api.post<ApiError & { error: { blacklistRuleId?: string } }>('/charges', {
      json: charge,
      headers,
    });
    expect(response.status).to.equal(402);
    expect(response.body.error).to.include({ type: 'card_error', code: 'blacklisted', blacklistRuleId: ruleId });
    const chargeId = response.body.error.chargeId!;
    const stored = await api.get<Charge>(`/charges/${chargeId}`);
    expect(stored.body).to.include({ status: 'failed', failureCode: 'blacklisted' });
    const events = await eventsOf(api, chargeId);
    expect(events.map((event) => event.type)).to.deep.equal(['CHARGE_FAILED']);
  }

  it('blocks a card by fingerprint (rule made from the card number), and stops once the rule is deleted', async () => {
    const rule = (
      await api.post<Rule>('/blacklist', { json: { ruleType: 'fingerprint', cardNumber: '5555555555554444' } })
    ).body;
    const charge = { amount: 1000, currency: 'EUR', card: cardDetails('5555555555554444') };
    await expectBlocked(charge, rule.id);
    // Another card is not affected.
    expect(
      (await api.post('/charges', { json: { ...charge, card: cardDetails('4242424242424242') } })).status,
    ).to.equal(200);
    await api.delete(`/blacklist/${rule.id}`);
    expect((await api.post('/charges', { json: charge })).status).to.equal(200);
  });

  it("blocks by email, the payer's IP address, user agent, accept language, IP country, and metadata", async () => {
    const card = cardDetails('4242424242424242');
    const create = async (rule: Record<string, string>) => (await api.post<Rule>('/blacklist', { json: rule })).body.id;

    const email = await create({ ruleType: 'email', email: 'Fraudster@Example.com' });
    await expectBlocked({ amount: 100, currency: 'EUR', card, billing: { email: 'fraudster@example.com' } }, email);

    const agent = await create({ ruleType: 'user_agent', userAgent: 'EvilBot/1.0' });
    await expectBlocked(
      { amount: 100, currency: 'EUR', card: { ...card, fraudCheckData: { userAgent: 'EvilBot/1.0' } } },
      agent,
    );

    const language = await create({ ruleType: 'accept_language', acceptLanguage: 'xx-XX' });
    await expectBlocked(
      { amount: 100, currency: 'EUR', card: { ...card, fraudCheckData: { acceptLanguage: 'xx-XX' } } },
      language,
    );

    const ip = await create({ ruleType: 'ip_address', ipAddress: '203.0.113.7' });
    await expectBlocked(
      { amount: 100, currency: 'EUR', card: { ...card, fraudCheckData: { ipAddress: '203.0.113.7' } } },
      ip,
    );

    const country = await create({ ruleType: 'ip_country', ipCountry: 'kp' });
    await expectBlocked(
      { amount: 100, currency: 'EUR', card: { ...card, fraudCheckData: { ipCountry: 'KP' } } },
      country,
    );

    const metadata = await create({ ruleType: 'metadata', metadataKey: 'campaign', metadataValue: 'stolen-cards' });
    await expectBlocked({ amount: 100, currency: 'EUR', card, metadata: { campaign: 'stolen-cards' } }, metadata);
    expect(
      (await api.post('/charges', { json: { amount: 100, currency: 'EUR', card, metadata: { campaign: 'spring' } } }))
        .status,
    ).to.equal(200);
  });

  it("never screens the merchant server's own IP address and headers: a rule on them blocks no server-side charge", async () => {
    const card = cardDetails('3566002020360505');
    const serverAgent = 'MerchantServer/3.1';
    await api.post('/blacklist', { json: { ruleType: 'ip_address', ipAddress: '127.0.0.1' } });
    await api.post('/blacklist', { json: { ruleType: 'user_agent', userAgent: serverAgent } });
    await api.post('/blacklist', { json: { ruleType: 'accept_language', acceptLanguage: 'en-MERCHANT' } });
    const response = await api.post<Charge>('/charges', {
      json: { amount: 100, currency: 'EUR', card },
      headers: { 'user-agent': serverAgent, 'accept-language': 'en-MERCHANT' },
    });
    expect(response.status).to.equal(200);
    expect(response.body.card.fraudCheckData).to.equal(null);

    // The same rules apply to the payer: a token made in the payer's browser (public key) carries them.
    const publicApi = api.withKey(service.keys!.testPublicKey);
    const token = await publicApi.post<{ id: string }>('/tokens', {
      json: card,
      headers: { 'user-agent': 'PayerBrowser/9.0', 'accept-language': 'de-DE' },
    });
    const blocked = await api.post<ApiError>('/charges', {
      json: { amount: 100, currency: 'EUR', card: token.body.id },
      headers: { 'user-agent': 'SomethingElse/1.0' },
    });
    expect(blocked.status).to.equal(402);
    expect(blocked.body.error).to.include({ code: 'blacklisted' });
    const charge = await api.get<Charge>(`/charges/${blocked.body.error.chargeId}`);
    expect(charge.body.card.fraudCheckData).to.deep.equal({
      ipAddress: '127.0.0.1',
      userAgent: 'PayerBrowser/9.0',
      acceptLanguage: 'de-DE',
    });
    const rules = await api.get<{ list: { id: string }[] }>('/blacklist');
    for (const rule of rules.body.list) await api.delete(`/blacklist/${rule.id}`);
  });

  it("derives the IP country from the payer's IP address (offline GeoIP) for ip_country rules", async () => {
    const rule = (await api.post<Rule>('/blacklist', { json: { ruleType: 'ip_country', ipCountry: 'GB' } })).body;
    const britishPayer = { ...cardDetails('5200828282828210'), fraudCheckData: { ipAddress: '81.2.69.160' } };
    await expectBlocked({ amount: 100, currency: 'EUR', card: britishPayer }, rule.id);
    const americanPayer = { ...cardDetails('5200828282828210'), fraudCheckData: { ipAddress: '8.8.8.8' } };
    const allowed = await api.post<Charge>('/charges', { json: { amount: 100, currency: 'EUR', card: americanPayer } });
    expect(allowed.status).to.equal(200);
    expect(allowed.body.card.fraudCheckData).to.deep.equal({ ipAddress: '8.8.8.8', ipCountry: 'US' });
    await api.delete(`/blacklist/${rule.id}`);
  });

  it("does not apply another mode's rules", async () => {
    const live = api.withKey(service.keys!.liveSecretKey);
    await live.post('/blacklist', { json: { ruleType: 'fingerprint', cardNumber: '6011111111111117' } });
    const response = await api.post('/charges', {
      json: { amount: 100, currency: 'EUR', card: cardDetails('6011111111111117') },
    });
    expect(response.status).to.equal(200);
  });
});
