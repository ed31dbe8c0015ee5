import { expect } from 'chai';
import { cardDetails, createOtherAccount, type ApiError, type Charge, type Page } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

describe('account settings: accepted currencies and brands; live mode without a card network', function () {
  this.timeout(60_000);
  const { api, service } = useService();

  const settings = async (accountId: string, ...options: string[]) => {
    const result = await runCli(['accounts', 'settings', accountId, ...options, '--json'], service.dataDir);
    expect(result.code, result.stderr).to.equal(0);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  };

  it('accepts every currency and brand by default and refuses credits, as documented', async () => {
    const { keys } = await createOtherAccount(api, service.dataDir, 'Defaults');
    expect(await settings(keys.id)).to.deep.equal({
      subscriptionFailureStatus: 'canceled',
      acceptedCurrencies: null,
      acceptedBrands: null,
      creditsAllowed: false,
      checkoutOrigins: [],
    });
  });

  it('fails charges outside the accepted currencies and brands with currency_not_supported / brand_not_supported', async () => {
    const { keys, api: shop } = await createOtherAccount(api, service.dataDir, 'Euro shop');
    expect(await settings(keys.id, '--currencies', 'eur,USD', '--brands', 'visa,MasterCard')).to.include({
      creditsAllowed: false,
    });
    const charge = (currency: string, number: string) =>
      shop.post<ApiError>('/charges', { json: { amount: 500, currency, card: cardDetails(number) } });

    const currency = await charge('GBP', '4242424242424242');
    expect(currency.status).to.equal(402);
    expect(currency.body.error).to.include({ type: 'card_error', code: 'currency_not_supported' });
    expect(currency.body.error.message).to.equal('The account is not configured for the currency GBP.');
    const brand = await charge('EUR', '378282246310005');
    expect(brand.status).to.equal(402);
    expect(brand.body.error).to.include({ type: 'card_error', code: 'brand_not_supported' });
    const failed = await shop.get<Charge>(`/charges/${brand.body.error.chargeId}`);
    expect(failed.body).to.include({ status: 'failed', failureCode: 'brand_not_supported' });

    expect((await charge('USD', '5555555555554444')).status).to.equal(200);
    await settings(keys.id, '--currencies', 'all', '--brands', 'all');
    expect((await charge('GBP', '378282246310005')).status).to.equal(200);
  });

  it('explains a bad settings value on the command line', async () => {
    const result = await runCli(['accounts', 'settings', service.keys!.id, '--currencies', 'EUR,XXQ'], service.dataDir);
    expect(result.code).to.not.equal(0);
    expect(result.stderr).to.contain('XXQ is not an ISO 4217 currency code');
  });

  it("keeps the merchant's checkout sites as origins; refuses a URL with a path, and none empties the list", async () => {
    const { keys } = await createOtherAccount(api, service.dataDir, 'Sites');
    expect(
      await settings(
        keys.id,
        '--checkout-origins',
        'https://shop.example, https://www.shop.example/,http://localhost:8080',
      ),
    ).to.deep.include({
      checkoutOrigins: ['https://shop.example', 'https://www.shop.example', 'http://localhost:8080'],
    });
    for (const bad of ['https://shop.example/pay', 'shop.example', 'ftp://shop.example']) {
      const result = await runCli(['accounts', 'settings', keys.id, '--checkout-origins', bad], service.dataDir);
      expect(result.code, bad).to.not.equal(0);
      expect(result.stderr).to.contain(`--checkout-origins: ${bad} is not an origin`);
    }
    expect(await settings(keys.id)).to.deep.include({
      checkoutOrigins: ['https://shop.example', 'https://www.shop.example', 'http://localhost:8080'],
    });
    expect(await settings(keys.id, '--checkout-origins', 'none')).to.deep.include({ checkoutOrigins: [] });
  });

  it('fails live charges and refunds with gateway_error; test cards never succeed in live mode', async () => {
    const live = api.withKey(service.keys!.liveSecretKey);
    for (const number of ['4242424242424242', '5555555555554444', '378282246310005']) {
      const response = await live.post<ApiError>('/charges', {
        json: { amount: 100, currency: 'EUR', card: cardDetails(number) },
      });
      expect(response.status, number).to.equal(502);
      expect(response.body.error.type).to.equal('gateway_error');
      expect(response.body.error.message).to.match(/^Live processing is not configured/);
    }
    expect((await live.get<Page<Charge>>('/charges')).body.list).to.deep.equal([]);
    const token = await live.post<{ id: string }>('/tokens', { json: cardDetails('4242424242424242') });
    expect(token.status).to.equal(200);
    const fromToken = await live.post<ApiError>('/charges', {
      json: { amount: 100, currency: 'EUR', card: token.body.id },
    });
    expect(fromToken.status).to.equal(502);
  });
});
