import { expect } from 'chai';
import { cardDetails } from '../support/payments.ts';
import { createPlan } from '../support/subscriptions.ts';
import { useService } from '../support/use-service.ts';

type ApiError = { error: { type: string; message: string } };
type Listed = { list: unknown[] };

const NOT_COUNTRIES = ['12', 'P', 'ZZ', 'POL', 'pl', 'Pl', ''];

/** Each parameter that holds a country code, as a request that sets it to `country`. */
const requests: {
  parameter: string;
  path: string;
  body: (country: string) => { json?: unknown; form?: Record<string, string> };
}[] = [
  {
    parameter: 'shipping[address][country]',
    path: '/charges',
    body: (country) => ({
      json: { amount: 100, currency: 'EUR', card: cardDetails('4242424242424242'), shipping: { address: { country } } },
    }),
  },
  {
    parameter: 'billing[address][country]',
    path: '/charges',
    body: (country) => ({
      form: {
        amount: '100',
        currency: 'EUR',
        'card[number]': '4242424242424242',
        'card[expMonth]': '12',
        'card[expYear]': '2035',
        'card[cvc]': '123',
        'billing[address][country]': country,
      },
    }),
  },
  {
    parameter: 'billing[address][country]',
    path: '/payment-methods',
    body: (country) => ({ json: { type: 'alipay', billing: { address: { city: 'Warsaw', country } } } }),
  },
  {
    parameter: 'card[fraudCheckData][ipCountry]',
    path: '/charges',
    body: (country) => ({
      json: {
        amount: 100,
        currency: 'EUR',
        card: { ...cardDetails('4242424242424242'), fraudCheckData: { ipCountry: country } },
      },
    }),
  },
  {
    parameter: 'fraudCheckData[ipCountry]',
    path: '/tokens',
    body: (country) => ({ json: { ...cardDetails('4242424242424242'), fraudCheckData: { ipCountry: country } } }),
  },
];

/** The spec's address `country` and `fraudCheckData[ipCountry]` are two-letter ISO codes. */
describe('country codes', function () {
  this.timeout(60_000);
  const { api } = useService();

  it('refuses a country that is not a two-letter ISO code with a 400 naming the parameter, storing nothing', async () => {
    const counts = async () => ({
      charges: (await api.get<Listed>('/charges')).body.list.length,
      paymentMethods: (await api.get<Listed>('/payment-methods')).body.list.length,
    });
    const before = await counts();
    for (const { parameter, path, body } of requests) {
      for (const country of NOT_COUNTRIES) {
        const refused = await api.post<ApiError>(path, body(country));
        expect(refused.status, `${path} ${parameter}=${country}`).to.equal(400);
        expect(refused.body.error).to.deep.equal({
          type: 'invalid_request',
          message: `Invalid parameter: ${parameter} must be a two-letter ISO country code`,
        });
      }
    }
    expect(await counts()).to.deep.equal(before);
  });

  it("refuses it in the spec's other addresses too: a charge's and a subscription's update, a new subscription, a customer's cards", async () => {
    const customer = await api.post<{ id: string }>('/customers', {
      json: { email: 'countries@example.com', card: cardDetails('4242424242424242') },
    });
    const plan = await createPlan(api);
    const subscription = await api.post<{ id: string }>('/subscriptions', {
      json: { customerId: customer.body.id, planId: plan.id },
    });
    const charge = await api.post<{ id: string }>('/charges', {
      json: { amount: 100, currency: 'EUR', card: cardDetails('4242424242424242') },
    });
    const others: Array<[parameter: string, path: string, body: (country: string) => Record<string, unknown>]> = [
      [
        'shipping[address][country]',
        `/charges/${charge.body.id}`,
        (country) => ({ shipping: { address: { country } } }),
      ],
      ['billing[address][country]', `/charges/${charge.body.id}`, (country) => ({ billing: { address: { country } } })],
      [
        'shipping[address][country]',
        '/subscriptions',
        (country) => ({ customerId: customer.body.id, planId: plan.id, shipping: { address: { country } } }),
      ],
      [
        'billing[address][country]',
        `/subscriptions/${subscription.body.id}`,
        (country) => ({ billing: { address: { country } } }),
      ],
      [
        'fraudCheckData[ipCountry]',
        `/customers/${customer.body.id}/cards`,
        (country) => ({ ...cardDetails('4242424242424242'), fraudCheckData: { ipCountry: country } }),
      ],
      [
        'card[fraudCheckData][ipCountry]',
        '/customers',
        (country) => ({
          email: 'countries@example.com',
          card: { ...cardDetails('4242424242424242'), fraudCheckData: { ipCountry: country } },
        }),
      ],
    ];
    const state = async () => ({
      charge: (await api.get<{ shipping?: unknown; billing?: unknown }>(`/charges/${charge.body.id}`)).body,
      subscriptions: (await api.get<Listed>('/subscriptions')).body.list.length,
      customers: (await api.get<Listed>('/customers')).body.list.length,
      cards: (await api.get<Listed>(`/customers/${customer.body.id}/cards`)).body.list.length,
    });
    const before = await state();
    for (const [parameter, path, body] of others) {
      for (const country of NOT_COUNTRIES) {
        const refused = await api.post<ApiError>(path, { json: body(country) });
        expect(refused.status, `${path} ${parameter}=${country}`).to.equal(400);
        expect(refused.body.error).to.deep.equal({
          type: 'invalid_request',
          message: `Invalid parameter: ${parameter} must be a two-letter ISO country code`,
        });
      }
      const accepted = await api.post(path, { json: body('PL') });
      expect(accepted.status, `${path} ${parameter}=PL: ${JSON.stringify(accepted.body)}`).to.equal(200);
    }
    const after = await state();
    // Only the accepted requests changed anything: each refused one stored nothing.
    expect(after.subscriptions).to.equal(before.subscriptions + 1);
    expect(after.customers).to.equal(before.customers + 1);
    expect(after.cards).to.equal(before.cards + 1);
    expect([after.charge.shipping, after.charge.billing]).to.deep.equal([
      { address: { country: 'PL' } },
      { address: { country: 'PL' } },
    ]);
  });

  it('accepts a code of a country that exists, and stores and answers it as sent', async () => {
    const [shipping, billing, paymentMethod, fraudCheck, token] = await Promise.all(
      requests.map(({ path, body }) => api.post<Record<string, unknown>>(path, body('PL'))),
    );
    for (const response of [shipping, billing, paymentMethod, fraudCheck, token])
      expect(response!.status).to.equal(200);
    const address = (owner: unknown) => (owner as { address: { country: string } }).address;
    expect(address(shipping!.body.shipping).country).to.equal('PL');
    expect(address(billing!.body.billing).country).to.equal('PL');
    const storedMethod = await api.get<{ billing: unknown }>(`/payment-methods/${String(paymentMethod!.body.id)}`);
    expect(address(storedMethod.body.billing)).to.deep.equal({ city: 'Warsaw', country: 'PL' });
    const storedCharge = await api.get<{ card: { fraudCheckData: unknown } }>(
      `/charges/${String(fraudCheck!.body.id)}`,
    );
    expect(storedCharge.body.card.fraudCheckData).to.deep.equal({ ipCountry: 'PL' });
    const chargedToken = await api.post<{ card: { fraudCheckData: unknown } }>('/charges', {
      json: { amount: 100, currency: 'EUR', card: token!.body.id },
    });
    expect(chargedToken.body.card.fraudCheckData).to.deep.equal({ ipCountry: 'PL' });
  });
});
