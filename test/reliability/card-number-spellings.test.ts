import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { signCheckoutRequest } from '../../packages/checkout/sign-checkout-request.ts';
import { findCardData, MAESTRO_12_DIGITS, VISA_13_DIGITS } from '../support/card-data-scan.ts';
import { cardDetails } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

const VISA = '4242424242424242';
const WHY =
  'must not contain a card number; card numbers are accepted only in card number fields, which keep them in the vault';

type ApiError = { error: { type: string; message: string } };
type Charge = { id: string; card: { fraudCheckData: Record<string, string> | null } };

const grouped = (separator: string, number = VISA) => number.match(/.{1,4}/g)!.join(separator);
const fullwidth = (digits: string) => digits.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
const percentEncoded = (digits: string) => [...digits].map((d) => `%3${d}`).join('');

/**
 * Card numbers never reach an event, a read model, the operational state, a log line or the CLI's
 * output, whichever input carries them (headers, free text, the path) and however they are written.
 * Every case goes through the running service; the data files, the log and the CLI output are then
 * scanned for each number in every spelling (test/support/card-data-scan.ts).
 */
describe('card numbers in headers, free text and paths, however written', function () {
  this.timeout(120_000);
  const { api, service } = useService({ env: { LOG_LEVEL: 'debug' } });

  /**
   * Scans the data files (events, read models rebuilt from them, state.sqlite), the log and the
   * output of the CLI showing what was stored: no card number in any spelling.
   */
  async function expectNoCardNumberStored(objectIds: string[] = []): Promise<string[]> {
    // runCli fails by itself when its output holds a card number.
    const rebuild = await runCli(['projections', 'rebuild', '--all'], service.dataDir);
    expect(rebuild.code, rebuild.stderr).to.equal(0);
    const shown: string[] = [];
    for (const id of objectIds) {
      const show = await runCli(['streams', 'show', id, '--json'], service.dataDir);
      expect(show.code, show.stderr).to.equal(0);
      shown.push(show.stdout);
    }
    expect(findCardData(service.dataDir, service.output())).to.deep.equal([]);
    return shown;
  }

  it('refuses an Idempotency-Key holding a card number with a 400, and stores nothing', async () => {
    const keys = [`order-${VISA}`, `order-${VISA_13_DIGITS}`, `order-${grouped('.')}`, `${MAESTRO_12_DIGITS}-retry`];
    for (const key of keys) {
      const refused = await api.post<ApiError>('/customers', {
        json: { email: 'key@example.com' },
        headers: { 'Idempotency-Key': key },
      });
      expect(refused.status, key).to.equal(400);
      expect(refused.body.error).to.deep.equal({
        type: 'invalid_request',
        message: 'Invalid Idempotency-Key header: must not contain a card number',
      });
    }
    expect((await api.get<{ list: unknown[] }>('/customers')).body.list).to.deep.equal([]);
    // Order numbers and timestamps in keys are fine.
    const kept = await api.post<{ id: string }>('/customers', {
      json: { email: 'key@example.com' },
      headers: { 'Idempotency-Key': 'order-1795000000004-20261126' },
    });
    expect(kept.status).to.equal(200);
    const [history] = await expectNoCardNumberStored([kept.body.id]);
    expect(history).to.include('order-1795000000004-20261126');
  });

  it("masks a card number in the User-Agent or Accept-Language of a payer's token request", async () => {
    const publicApi = api.withKey(service.keys!.testPublicKey);
    const token = await publicApi.post<{ id: string }>('/tokens', {
      json: cardDetails('5555555555554444'),
      headers: { 'User-Agent': `Mozilla/5.0 (${grouped(' ')})`, 'Accept-Language': `pl-PL,${VISA_13_DIGITS};q=0.9` },
    });
    expect(token.status).to.equal(200);
    const charge = await api.post<Charge>('/charges', { json: { amount: 100, currency: 'EUR', card: token.body.id } });
    expect(charge.status).to.equal(200);
    expect(charge.body.card.fraudCheckData).to.deep.equal({
      ipAddress: '127.0.0.1',
      userAgent: 'Mozilla/5.0 ([REDACTED])',
      acceptLanguage: 'pl-PL,[REDACTED];q=0.9',
    });
    const shown = await expectNoCardNumberStored([token.body.id, charge.body.id]);
    expect(shown.join('\n')).to.include('Mozilla/5.0 ([REDACTED])');
  });

  it('refuses a card number in free text in every length, place and spelling, storing nothing', async () => {
    const listed = async (path: string) => (await api.get<{ list: unknown[] }>(path)).body.list.length;
    const before = { charges: await listed('/charges'), customers: await listed('/customers') };
    const texts = [
      `visa ${VISA_13_DIGITS}`,
      `maestro ${MAESTRO_12_DIGITS}`,
      `ref 9${VISA}0`,
      `ref 000${VISA}`,
      grouped('.'),
      grouped('/'),
      grouped('\u00a0'),
      grouped('\t'),
      grouped('\n'),
      [...VISA].join('\u200b'),
      fullwidth(VISA),
      grouped('\u3000', fullwidth(MAESTRO_12_DIGITS)),
    ];
    for (const description of texts) {
      const refused = await api.post<ApiError>('/charges', {
        json: { amount: 100, currency: 'EUR', card: cardDetails('4000000000000077'), description },
      });
      expect(refused.status, JSON.stringify(description)).to.equal(400);
      expect(refused.body.error.message).to.equal(`Invalid parameter: description ${WHY}`);
      const asForm = await api.post<ApiError>('/customers', { form: { email: 'c@example.com', description } });
      expect(asForm.status, JSON.stringify(description)).to.equal(400);
    }
    expect({ charges: await listed('/charges'), customers: await listed('/customers') }).to.deep.equal(before);
    await expectNoCardNumberStored();
  });

  it('refuses a card number in what a checkout page sends, or in the checkout request the merchant signed', async () => {
    const publicKey = service.keys!.testPublicKey;
    const token = await api.post<{ id: string }>('/tokens', { json: cardDetails(VISA), key: publicKey });
    const pay = (request: object, body: Record<string, unknown>) =>
      api.post<ApiError>('/checkout/pay', {
        json: { checkoutRequest: signCheckoutRequest(request, service.keys!.testSecretKey), ...body },
        key: publicKey,
      });
    const charge = { amount: 1000, currency: 'EUR' };
    const signedNumber = await pay(
      { charge: { ...charge, metadata: { order: grouped('.', MAESTRO_12_DIGITS) } } },
      { email: 'payer@example.com', token: token.body.id },
    );
    expect(signedNumber.status).to.equal(400);
    expect(signedNumber.body.error.message).to.equal(
      `Invalid parameter: checkoutRequest[charge][metadata][order] ${WHY}`,
    );
    const sentNumber = await pay(
      { charge },
      { email: `${fullwidth(VISA_13_DIGITS)}@example.com`, token: token.body.id },
    );
    expect(sentNumber.status).to.equal(400);
    expect(sentNumber.body.error.message).to.equal(`Invalid parameter: email ${WHY}`);
    expect((await api.get<{ list: unknown[] }>('/customers?email=payer%40example.com')).body.list).to.deep.equal([]);
    await expectNoCardNumberStored();
  });

  it('does not build the links it stores from a Host header holding a card number', async () => {
    // fetch sets Host itself: a raw request sends the one a client could.
    const body = JSON.stringify({
      amount: 1000,
      currency: 'EUR',
      paymentMethod: { type: 'ideal' },
      flow: { returnUrl: 'https://shop.example.com/back' },
    });
    const answer = await new Promise<string>((resolve, reject) => {
      const sent = httpRequest(
        `${service.baseUrl}/charges`,
        {
          method: 'POST',
          headers: {
            Host: `${grouped('.')}:80`,
            'Content-Type': 'application/json',
            Authorization: `Basic ${Buffer.from(`${service.keys!.testSecretKey}:`).toString('base64')}`,
          },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve(text));
        },
      );
      sent.on('error', reject);
      sent.end(body);
    });
    const charge = JSON.parse(answer) as { id: string; flow: { redirect: { redirectUrl: string } } };
    expect(charge.flow.redirect.redirectUrl).to.match(/^http:\/\/localhost\/payment-redirects\//);
    await expectNoCardNumberStored([charge.id]);
  });

  it('masks percent-encoded card numbers in the paths of the access log', async () => {
    const paths = [
      `/customers/${percentEncoded(VISA)}`,
      `/customers/${grouped('%20')}`,
      `/customers/${grouped('%2D')}`,
      `/customers/${grouped('+')}`,
      `/customers/${percentEncoded(MAESTRO_12_DIGITS)}/cards`,
    ];
    for (const path of paths) expect((await api.get(path)).status, path).to.equal(404);
    // Lines are written once per turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const logged = service
      .output()
      .split('\n')
      .filter((line) => line.includes('"message":"request"') && line.includes('"method":"GET"'))
      .map((line) => (JSON.parse(line) as { path: string }).path);
    expect(logged).to.include.members(['/customers/[REDACTED]', '/customers/[REDACTED]/cards']);
    expect(logged.filter((path) => path.startsWith('/customers/[REDACTED]'))).to.have.length(paths.length);
    await expectNoCardNumberStored();
  });
});
