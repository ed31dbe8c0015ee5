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

  it('blocks by email, IP address, user agent, accept language, IP country and metadata', async () => {
    const card = cardDetails('4242424242424242');
    const create = async (rule: Record<string, string>) => (await api.post<Rule>('/blacklist', { json: rule })).body.id;

    const email = await create({ ruleType: 'email', email: 'Fraudster@Example.com' });
    await expectBlocked({ amount: 100, currency: 'EUR', card, billing: { email: 'fraudster@example.com' } }, email);

    const agent = await create({ ruleType: 'user_agent', userAgent: 'EvilBot/1.0' });
    await expectBlocked({ amount: 100, currency: 'EUR', card }, agent, { 'user-agent': 'EvilBot/1.0' });

    const language = await create({ ruleType: 'accept_language', acceptLanguage: 'xx-XX' });
    await expectBlocked({ amount: 100, currency: 'EUR', card }, language, { 'accept-language': 'xx-XX' });

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

  it("does not apply another mode's rules", async () => {
    const live = api.withKey(service.keys!.liveSecretKey);
    await live.post('/blacklist', { json: { ruleType: 'fingerprint', cardNumber: '6011111111111117' } });
    const response = await api.post('/charges', {
      json: { amount: 100, currency: 'EUR', card: cardDetails('6011111111111117') },
    });
    expect(response.status).to.equal(200);
  });
});
