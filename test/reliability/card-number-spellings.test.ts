import { expect } from 'chai';
import { statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { signCheckoutRequest } from '../../packages/checkout/sign-checkout-request.ts';
import { TEST_CARDS } from '../../packages/network/test-cards.ts';
import { findCardData, MAESTRO_12_DIGITS, VISA_13_DIGITS } from '../support/card-data-scan.ts';
import { cardDetails } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';
import { scale, suiteTimeoutMs } from './scale.ts';

const VISA = '4242424242424242';
const WHY =
  'must not contain a card number; card numbers are accepted only in card number fields, which keep them in the vault';

type ApiError = { error: { type: string; message: string } };
type Charge = { id: string; card: { fraudCheckData: Record<string, string> | null } };

const grouped = (separator: string, number = VISA) => number.match(/.{1,4}/g)!.join(separator);
const fullwidth = (digits: string) => digits.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
const percentEncoded = (digits: string) => [...digits].map((d) => `%3${d}`).join('');

/** Every way of writing a card number in free text that the fixed cases use, by name. */
const SPELLINGS: Record<string, (number: string) => string> = {
  plain: (number) => number,
  'inside a longer run of digits': (number) => `9${number}0`,
  'after leading zeros': (number) => `000${number}`,
  'grouped with dots': (number) => grouped('.', number),
  'grouped with slashes': (number) => grouped('/', number),
  'grouped with no-break spaces': (number) => grouped('\u00a0', number),
  'grouped with tabs': (number) => grouped('\t', number),
  'grouped with newlines': (number) => grouped('\n', number),
  'with zero-width spaces': (number) => [...number].join('\u200b'),
  'in fullwidth digits': fullwidth,
  'in fullwidth digits grouped with ideographic spaces': (number) => grouped('\u3000', fullwidth(number)),
};

/**
 * Card numbers never reach an event, a read model, the operational state, a log line or the CLI's
 * output, whichever input carries them (headers, free text, the path) and however they are written.
 * Every case goes through one running service and checks its answers; once they have all run, the
 * service stops, the read models are rebuilt from the log, and the data files, the log and the
 * output of every CLI run are scanned once for each number in every spelling
 * (test/support/card-data-scan.ts). The soak setting also sends every test card number in every
 * spelling.
 */
describe(`card numbers in headers, free text and paths, however written (${scale.name})`, function () {
  this.timeout(suiteTimeoutMs);
  const { api, service } = useService({
    env: { LOG_LEVEL: 'debug', RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' },
  });

  /** Objects whose stored history the CLI shows at the end, and what each history must show. */
  const histories: { id: string; shows: string }[] = [];
  const sent = { requests: 0, refused: 0, masked: 0 };
  const count = <T extends { status: number }>(answer: T): T => {
    sent.requests++;
    if (answer.status === 400) sent.refused++;
    return answer;
  };

  // Runs before the fixture stops the service and removes its data (an inner describe's hooks come first).
  describe('each input', function () {
    after(
      'one scan of the data files, the read models rebuilt from the log, the log and the CLI output',
      async function () {
        const scanStarted = Date.now();
        // Stopped, the service leaves the projections to the CLI, which rebuilds them here at once.
        await service.stop();
        // runCli fails by itself when its output holds a card number.
        const rebuild = await runCli(['projections', 'rebuild', '--all'], service.dataDir);
        expect(rebuild.code, rebuild.stderr).to.equal(0);
        for (const { id, shows } of histories) {
          const shown = await runCli(['streams', 'show', id, '--json'], service.dataDir);
          expect(shown.code, shown.stderr).to.equal(0);
          expect(shown.stdout, id).to.include(shows);
        }
        const found = findCardData(service.dataDir, service.output());
        const files = readdirSync(service.dataDir).filter((name) => statSync(join(service.dataDir, name)).isFile());
        const bytes = files.reduce((sum, name) => sum + statSync(join(service.dataDir, name)).size, 0);
        console.log(
          `      card number spellings [${scale.name}]: ${sent.requests} requests (${sent.refused} refused, ` +
            `${sent.masked} masked), ${files.length} data files (${(bytes / 2 ** 20).toFixed(1)} MB), ` +
            `${service.output().split('\n').length} log lines and ${histories.length + 1} CLI outputs scanned ` +
            `in ${((Date.now() - scanStarted) / 1000).toFixed(1)} s: card numbers found ${found.length}`,
        );
        expect(found).to.deep.equal([]);
      },
    );

    it('refuses an Idempotency-Key holding a card number with a 400, and stores nothing', async () => {
      const keys = [`order-${VISA}`, `order-${VISA_13_DIGITS}`, `order-${grouped('.')}`, `${MAESTRO_12_DIGITS}-retry`];
      // Header values are ASCII: the soak setting adds every test card number in the ASCII spellings.
      if (scale.spellEveryTestCard)
        for (const number of TEST_CARDS.keys())
          keys.push(`order-${number}`, `order-${grouped('.', number)}`, `${grouped('/', number)}-retry`);
      for (const key of keys) {
        const refused = count(
          await api.post<ApiError>('/customers', {
            json: { email: 'key@example.com' },
            headers: { 'Idempotency-Key': key },
          }),
        );
        expect(refused.status, key).to.equal(400);
        expect(refused.body.error).to.deep.equal({
          type: 'invalid_request',
          message: 'Invalid Idempotency-Key header: must not contain a card number',
        });
      }
      expect((await api.get<{ list: unknown[] }>('/customers?email=key%40example.com')).body.list).to.deep.equal([]);
      // Order numbers and timestamps in keys are fine.
      const kept = await api.post<{ id: string }>('/customers', {
        json: { email: 'key@example.com' },
        headers: { 'Idempotency-Key': 'order-1795000000004-20261126' },
      });
      expect(kept.status).to.equal(200);
      histories.push({ id: kept.body.id, shows: 'order-1795000000004-20261126' });
    });

    it("masks a card number in the User-Agent or Accept-Language of a payer's token request", async () => {
      const publicApi = api.withKey(service.keys!.testPublicKey);
      const token = count(
        await publicApi.post<{ id: string }>('/tokens', {
          json: cardDetails('5555555555554444'),
          headers: {
            'User-Agent': `Mozilla/5.0 (${grouped(' ')})`,
            'Accept-Language': `pl-PL,${VISA_13_DIGITS};q=0.9`,
          },
        }),
      );
      expect(token.status).to.equal(200);
      const charge = await api.post<Charge>('/charges', {
        json: { amount: 100, currency: 'EUR', card: token.body.id },
      });
      expect(charge.status).to.equal(200);
      expect(charge.body.card.fraudCheckData).to.deep.equal({
        ipAddress: '127.0.0.1',
        userAgent: 'Mozilla/5.0 ([REDACTED])',
        acceptLanguage: 'pl-PL,[REDACTED];q=0.9',
      });
      sent.masked += 2;
      histories.push(
        { id: token.body.id, shows: 'Mozilla/5.0 ([REDACTED])' },
        { id: charge.body.id, shows: 'Mozilla/5.0 ([REDACTED])' },
      );
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
      if (scale.spellEveryTestCard)
        for (const number of [...TEST_CARDS.keys(), VISA_13_DIGITS, MAESTRO_12_DIGITS])
          for (const spell of Object.values(SPELLINGS)) texts.push(`note ${spell(number)} end`);
      for (const description of texts) {
        const refused = count(
          await api.post<ApiError>('/charges', {
            json: { amount: 100, currency: 'EUR', card: cardDetails('4000000000000077'), description },
          }),
        );
        expect(refused.status, JSON.stringify(description)).to.equal(400);
        expect(refused.body.error.message).to.equal(`Invalid parameter: description ${WHY}`);
        const asForm = count(await api.post<ApiError>('/customers', { form: { email: 'c@example.com', description } }));
        expect(asForm.status, JSON.stringify(description)).to.equal(400);
      }
      expect({ charges: await listed('/charges'), customers: await listed('/customers') }).to.deep.equal(before);
    });

    it('refuses a card number in what a checkout page sends, or in the checkout request the merchant signed', async () => {
      const publicKey = service.keys!.testPublicKey;
      const token = await api.post<{ id: string }>('/tokens', { json: cardDetails(VISA), key: publicKey });
      const pay = async (request: object, body: Record<string, unknown>) =>
        count(
          await api.post<ApiError>('/checkout/pay', {
            json: { checkoutRequest: signCheckoutRequest(request, service.keys!.testSecretKey), ...body },
            key: publicKey,
          }),
        );
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
      sent.requests++;
      sent.masked++;
      histories.push({ id: charge.id, shows: charge.id });
    });

    it('masks percent-encoded card numbers in the paths of the access log', async () => {
      const paths = [
        `/customers/${percentEncoded(VISA)}`,
        `/customers/${grouped('%20')}`,
        `/customers/${grouped('%2D')}`,
        `/customers/${grouped('+')}`,
        `/customers/${percentEncoded(MAESTRO_12_DIGITS)}/cards`,
      ];
      for (const path of paths) expect(count(await api.get(path)).status, path).to.equal(404);
      // Lines are written once per turn of the event loop.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const logged = service
        .output()
        .split('\n')
        .filter((line) => line.includes('"message":"request"') && line.includes('"method":"GET"'))
        .map((line) => (JSON.parse(line) as { path: string }).path);
      expect(logged).to.include.members(['/customers/[REDACTED]', '/customers/[REDACTED]/cards']);
      expect(logged.filter((path) => path.startsWith('/customers/[REDACTED]'))).to.have.length(paths.length);
      sent.masked += paths.length;
    });
  });
});
