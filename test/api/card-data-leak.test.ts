import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

/** Every test card number of the network simulator, plus a Luhn-invalid one. */
const CARD_NUMBERS = [
  '4242424242424242',
  '4000056655665556',
  '4000000000000077',
  '5555555555554444',
  '5200828282828210',
  '378282246310005',
  '6011111111111117',
  '3566002020360505',
  '30569309025904',
  '6759649826438453',
  '4000000000000002',
  '4000000000009995',
  '4000000000009987',
  '4000000000000069',
  '4000000000000127',
  '4000000000000036',
  '4000000000000119',
  '4100000000000019',
  '4000000000000010',
  '4000000000000044',
  '4000000000000341',
  '4000000000003220',
  '4000000000003063',
  '4000000000003089',
  '4000000000000101',
  '4242000000000018',
  '4242000000000208',
  '4242424242424241',
];
/** CVCs unlikely to occur by chance in ids or hashes. */
const CVC3 = '739';
const CVC4 = '7391';

type Json = Record<string, unknown>;

/**
 * Card numbers and CVCs never reach an event, a read model, a log line or an error
 * (`docs/architecture.md`, "Card data and secrets").
 * Drives every endpoint that takes card data with every test card, then scans the raw store files
 * (events, read models, operational state incl. the vault) and the service's whole output.
 */
describe('card data never leaks', function () {
  // Hundreds of requests and twenty-one CLI runs, each a process start.
  this.timeout(600_000);
  const { api, service } = useService({
    env: { RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000', LOG_LEVEL: 'debug' },
  });
  const responses: string[] = [];

  before(async () => {
    const publicApi = api.withKey(service.keys!.testPublicKey);
    const record = (response: { body: unknown }) => {
      responses.push(JSON.stringify(response.body));
      return response.body as Json;
    };
    const details = (number: string) => ({
      number,
      expMonth: '12',
      expYear: '2031',
      cvc: number.startsWith('37') ? CVC4 : CVC3,
      cardholderName: 'Leak Test',
    });

    for (const number of CARD_NUMBERS) {
      const customer = record(await api.post('/customers', { json: { email: 'leak@example.com' } }));
      record(
        await api.post('/charges', {
          json: { amount: 1000, currency: 'EUR', card: details(number), billing: { address: { zip: '12345' } } },
        }),
      );
      record(
        await api.post('/charges', {
          form: {
            amount: '1000',
            currency: 'EUR',
            'card[number]': number,
            'card[expMonth]': '12',
            'card[expYear]': '31',
            'card[cvc]': CVC3,
          },
        }),
      );
      const token = record(
        await publicApi.post('/tokens', {
          form: { number, expMonth: '12', expYear: '2031', cvc: number.startsWith('37') ? CVC4 : CVC3 },
        }),
      );
      if (typeof token.id === 'string') {
        record(
          await api.post('/charges', {
            json: { amount: 500, currency: 'USD', card: token.id, customerId: customer.id },
          }),
        );
      }
      record(await api.post(`/customers/${String(customer.id)}/cards`, { json: details(number) }));
      record(await api.post('/customers', { json: { email: 'leak2@example.com', card: details(number) } }));
      const charge = record(
        await api.post('/charges', { json: { amount: 700, currency: 'EUR', customerId: customer.id } }),
      );
      if (charge.id) record(await api.post(`/charges/${String(charge.id)}/refund`, { json: { amount: 100 } }));
      record(await api.post('/blacklist', { json: { ruleType: 'fingerprint', cardNumber: number } }));
      record(await api.post('/credits', { json: { amount: 300, currency: 'EUR', card: details(number) } }));
      // Bad input around card data: errors must not echo it either.
      record(await api.post('/charges', { json: { amount: 'x', currency: 'EUR', card: details(number) } }));
      record(
        await api.post('/charges', { json: { amount: 100, currency: 'EUR', card: { ...details(number), cvc: '12' } } }),
      );
      record(
        await api.post('/charges', {
          json: { amount: 100, currency: 'EUR', card: { ...details(number), bogus: number } },
        }),
      );
    }
    // Rebuilt read models are scanned too.
    const rebuild = await runCli(['projections', 'rebuild', '--all'], service.dataDir);
    expect(rebuild.code, rebuild.stderr).to.equal(0);
    for (const id of responses
      .flatMap((text) => [...text.matchAll(/"(char|cust)_[A-Za-z0-9]{24}"/g)].map((match) => match[0].slice(1, -1)))
      .slice(0, 20)) {
      const shown = await runCli(['streams', 'show', id], service.dataDir);
      responses.push(shown.stdout, shown.stderr);
    }
  });

  const leaksIn = (text: string): string[] => [
    ...CARD_NUMBERS.filter((number) => text.includes(number)),
    ...[`"cvc":"${CVC3}"`, `"cvc":"${CVC4}"`, `cvc=${CVC3}`].filter((fragment) => text.includes(fragment)),
  ];

  it('keeps them out of the event store, the read store and the operational state (vault encrypted)', () => {
    const files = readdirSync(service.dataDir).filter((name) => name.includes('.sqlite'));
    expect(files.some((name) => name.startsWith('events.sqlite'))).to.equal(true);
    // The rebuilt read store (read.<n>.sqlite); the replaced read.sqlite too until the service
    // deletes it, 5 s after it switched.
    expect(files.some((name) => /^read(\.\d+)?\.sqlite$/.test(name))).to.equal(true);
    expect(files.some((name) => name.startsWith('state.sqlite'))).to.equal(true);
    for (const name of files) {
      const raw = readFileSync(join(service.dataDir, name)).toString('latin1');
      expect(leaksIn(raw), name).to.deep.equal([]);
      expect(raw.includes('"cvc"'), `${name} has a cvc field`).to.equal(false);
    }
  });

  it('keeps them out of every log line', () => {
    const output = service.output();
    expect(output.length).to.be.greaterThan(10_000);
    expect(leaksIn(output)).to.deep.equal([]);
  });

  it('keeps them out of every response, error and CLI output', () => {
    const all = responses.join('\n');
    expect(all).to.include('card_error');
    expect(all).to.include('invalid_request');
    expect(leaksIn(all)).to.deep.equal([]);
  });
});
