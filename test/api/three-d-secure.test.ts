import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.ts';
import { cardDetails, type ApiError, type Charge, type Token } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

const CHALLENGE = '4000000000003220';
const FRICTIONLESS = '4000000000003063';
const NOT_ENROLLED = '4000000000003089';
const MERCHANT_ORIGIN = 'http://shop.test:8080';

/** 3-D Secure on tokens with the public key, its challenge, and charges and credits using the result. */
describe('3-D Secure verification of tokens', function () {
  this.timeout(60_000);
  const { api, service, keys } = useService();
  /** The payer's browser: the public key. */
  let browser: ApiClient;

  before(() => {
    browser = api.withKey(keys.testPublicKey);
  });

  async function verifiedToken(number: string, amount = 1000, currency = 'EUR'): Promise<Token> {
    const token = await browser.post<Token>('/tokens', { json: cardDetails(number) });
    const verified = await browser.post<Token>(`/tokens/${token.body.id}/three-d-secure`, {
      json: { amount, currency },
    });
    expect(verified.status).to.equal(200);
    return verified.body;
  }

  function answerChallenge(tokenId: string, outcome: 'complete' | 'fail', code?: string) {
    return api.post<Token & ApiError>('/three-d-secure/challenge', {
      key: null,
      json: { token: tokenId, key: keys.testPublicKey, outcome, ...(code ? { code } : {}) },
    });
  }

  const charge = (tokenId: string, extra: Record<string, unknown> = {}) =>
    api.post<Charge & ApiError>('/charges', { json: { amount: 1000, currency: 'EUR', card: tokenId, ...extra } });

  it('frictionless card: liability shifted at once, and the charge carries the result', async () => {
    const token = await verifiedToken(FRICTIONLESS);
    expect(token.threeDSecureInfo).to.deep.equal({
      amount: 1000,
      currency: 'EUR',
      enrolled: true,
      liabilityShift: 'successful',
      authenticationFlow: 'frictionless',
      version: '2.2.0',
    });
    const paid = await charge(token.id);
    expect(paid.status).to.equal(200);
    expect(paid.body.threeDSecureInfo).to.deep.equal(token.threeDSecureInfo);
  });

  it('frictionless card refused by its issuer: failed without a challenge; the charge fails authentication_required', async () => {
    const token = await verifiedToken('4000000000003238');
    expect(token.threeDSecureInfo).to.include({ liabilityShift: 'failed', authenticationFlow: 'frictionless' });
    const refused = await charge(token.id);
    expect(refused.status).to.equal(402);
    expect(refused.body.error).to.include({ code: 'authentication_required' });
  });

  it('not enrolled card: not_possible; charged unless the merchant requires an enrolled card', async () => {
    const token = await verifiedToken(NOT_ENROLLED);
    expect(token.threeDSecureInfo).to.include({ enrolled: false, liabilityShift: 'not_possible', version: null });
    expect(token.threeDSecureInfo!.authenticationFlow).to.equal(null);
    expect((await charge(token.id)).body.status).to.equal('successful');
    const strict = await verifiedToken(NOT_ENROLLED);
    const refused = await charge(strict.id, { threeDSecure: { requireEnrolledCard: true } });
    expect(refused.status).to.equal(402);
    expect(refused.body.error).to.include({ code: 'authentication_required' });
  });

  it('challenge card: pending while the challenge is open; a charge then fails authentication_required', async () => {
    const token = await verifiedToken(CHALLENGE);
    expect(token.threeDSecureInfo).to.include({ liabilityShift: 'pending', authenticationFlow: 'challenge' });
    const stored = await api.get<Token>(`/tokens/${token.id}`);
    expect(stored.body.threeDSecureInfo?.liabilityShift).to.equal('pending');
    const refused = await charge(token.id);
    expect(refused.status).to.equal(402);
    expect(refused.body.error).to.include({ code: 'authentication_required' });
    const failed = await api.get<Charge>(`/charges/${refused.body.error.chargeId}`);
    expect(failed.body.threeDSecureInfo).to.include({ liabilityShift: 'pending', enrolled: true });
  });

  it('challenge completed on the issuer page: successful liability shift, the charge succeeds', async () => {
    const token = await verifiedToken(CHALLENGE);
    const page = await fetch(challengeUrl(token.id));
    expect(page.status).to.equal(200);
    const html = await page.text();
    expect(html).to.include('Complete authentication').and.include('Fail authentication').and.include('10.00 EUR');
    expect(page.headers.get('content-security-policy')).to.include(`frame-ancestors ${MERCHANT_ORIGIN}`);

    const answered = await answerChallenge(token.id, 'complete', '123456');
    expect(answered.status).to.equal(200);
    expect(answered.body.threeDSecureInfo).to.include({
      liabilityShift: 'successful',
      authenticationFlow: 'challenge',
    });
    // Nothing waits any more: the page says so, and a second answer is refused.
    expect((await fetch(challengeUrl(token.id))).status).to.equal(409);
    expect((await answerChallenge(token.id, 'fail')).status).to.equal(400);

    const paid = await charge(token.id);
    expect(paid.status).to.equal(200);
    expect(paid.body.threeDSecureInfo).to.include({ liabilityShift: 'successful', authenticationFlow: 'challenge' });
  });

  it("the challenge page, its script's messages and the pages instead of it are in the payer's language", async () => {
    const token = await verifiedToken(CHALLENGE, 123456);
    const polish = await fetch(challengeUrl(token.id), { headers: { 'accept-language': 'pl-PL,pl;q=0.9,en;q=0.5' } });
    const html = await polish.text();
    expect(html).to.include('<html lang="pl">').and.include('Potwierdź płatność').and.include('1234,56 EUR');
    // The page's script writes its status from the messages the page carries.
    const messages = /<script type="application\/json" id="challenge-messages">(.*?)<\/script>/s.exec(html)?.[1];
    expect(JSON.parse(messages!)).to.include({
      sending: 'Wysyłanie…',
      authenticationRefused: 'Uwierzytelnianie nie powiodło się.',
    });
    await answerChallenge(token.id, 'fail');
    // The merchant's locale wins over the browser's; nothing waits any more.
    const answered = await fetch(`${challengeUrl(token.id)}&locale=de`, { headers: { 'accept-language': 'pl' } });
    expect(answered.status).to.equal(409);
    expect(await answered.text())
      .to.include('<html lang="de">')
      .and.include('Für diese Karte wartet keine Authentifizierung.');
    const invalid = await fetch(`${service.baseUrl}/three-d-secure/challenge?token=x`, {
      headers: { 'accept-language': 'fr' },
    });
    expect(invalid.status).to.equal(400);
    expect(await invalid.text()).to.include('Cette authentification ne peut pas être affichée.');
    const field = await fetch(`${service.baseUrl}/js/fields/field.html?field=pin`, {
      headers: { 'accept-language': 'nl' },
    });
    expect(field.status).to.equal(400);
    expect(await field.text())
      .to.include('<html lang="nl">')
      .and.include('Dit kaartveld kan niet worden getoond.');
  });

  it('challenge failed: the charge fails authentication_required with liabilityShift failed', async () => {
    const token = await verifiedToken(CHALLENGE);
    expect((await answerChallenge(token.id, 'fail')).body.threeDSecureInfo?.liabilityShift).to.equal('failed');
    const refused = await charge(token.id);
    expect(refused.status).to.equal(402);
    expect(refused.body.error).to.include({ code: 'authentication_required' });
    const failed = await api.get<Charge>(`/charges/${refused.body.error.chargeId}`);
    expect(failed.body.threeDSecureInfo).to.include({ liabilityShift: 'failed' });
  });

  it('a result for another amount does not count: the challenge card is declined by its issuer', async () => {
    const token = await verifiedToken(CHALLENGE, 500);
    await answerChallenge(token.id, 'complete', '654321');
    const refused = await charge(token.id);
    expect(refused.status).to.equal(402);
    expect(refused.body.error).to.include({ code: 'authentication_required', issuerDeclineCode: '1A' });
  });

  it("a subscription with a verified token: its first payment carries the token's result, later charges of the saved card do not", async () => {
    const plan = await api.post<{ id: string }>('/plans', {
      json: { amount: 1000, currency: 'EUR', interval: 'month', name: 'Verified plan' },
    });
    const subscribe = async (outcome: 'complete' | 'fail') => {
      const token = await verifiedToken(CHALLENGE);
      await answerChallenge(token.id, outcome, outcome === 'complete' ? '123456' : undefined);
      const customer = await api.post<{ id: string }>('/customers', { json: { email: `${outcome}@example.com` } });
      const subscription = await api.post<{ status: string }>('/subscriptions', {
        json: { customerId: customer.body.id, planId: plan.body.id, card: token.id },
      });
      expect(subscription.status, JSON.stringify(subscription.body)).to.equal(200);
      const charges = await api.get<{ list: Charge[] }>('/charges', { query: { customerId: customer.body.id } });
      return { customerId: customer.body.id, status: subscription.body.status, charges: charges.body.list };
    };

    const paid = await subscribe('complete');
    expect(paid.status).to.equal('active');
    expect(paid.charges).to.have.length(1);
    expect(paid.charges[0]).to.include({ status: 'successful' });
    expect(paid.charges[0]!.threeDSecureInfo).to.include({ amount: 1000, liabilityShift: 'successful' });
    // The same amount again on the saved card: the cardholder's authentication was for one payment.
    const later = await api.post<Charge & ApiError>('/charges', {
      json: { amount: 1000, currency: 'EUR', customerId: paid.customerId },
    });
    expect(later.status).to.equal(402);
    expect(later.body.error).to.include({ code: 'authentication_required', issuerDeclineCode: '1A' });

    const failed = await subscribe('fail');
    expect(failed.status).to.equal('incomplete');
    expect(failed.charges.map((each) => each.status)).to.deep.equal(['failed']);
    expect(failed.charges[0]!.threeDSecureInfo).to.include({ liabilityShift: 'failed' });
  });

  it('a credit with a verified token carries its 3-D Secure result', async () => {
    // Credits are for accounts whose business model allows them (refused by default).
    const allowed = await runCli(['accounts', 'settings', keys.id, '--credits', 'allowed'], service.dataDir);
    expect(allowed.code, allowed.stderr).to.equal(0);
    const token = await verifiedToken(FRICTIONLESS, 700, 'USD');
    const credit = await api.post<{ threeDSecureInfo: unknown }>('/credits', {
      json: { amount: 700, currency: 'USD', card: token.id },
    });
    expect(credit.status).to.equal(200);
    expect(credit.body.threeDSecureInfo).to.deep.equal(token.threeDSecureInfo);
  });

  it('refuses bad verifications and answers with clear errors, changing nothing', async () => {
    const unknown = await browser.post<ApiError>('/tokens/tok_unknown/three-d-secure', {
      json: { amount: 1000, currency: 'EUR' },
    });
    expect(unknown.status).to.equal(404);
    const token = await browser.post<Token>('/tokens', { json: cardDetails(CHALLENGE) });
    const badAmount = await browser.post<ApiError>(`/tokens/${token.body.id}/three-d-secure`, {
      json: { amount: -5, currency: 'EUR' },
    });
    expect(badAmount.status).to.equal(400);
    expect(badAmount.body.error.message).to.match(/amount/);
    const otherAccount = await browser.post<ApiError>(`/tokens/${token.body.id}/three-d-secure`, {
      key: keys.livePublicKey,
      json: { amount: 1000, currency: 'EUR' },
    });
    expect(otherAccount.status).to.equal(404);
    expect((await answerChallenge(token.body.id, 'complete', '123456')).status).to.equal(400);
    expect((await api.get<Token>(`/tokens/${token.body.id}`)).body.threeDSecureInfo).to.equal(undefined);

    await browser.post(`/tokens/${token.body.id}/three-d-secure`, { json: { amount: 1000, currency: 'EUR' } });
    const noCode = await answerChallenge(token.body.id, 'complete');
    expect(noCode.status).to.equal(400);
    expect(noCode.body.error.message).to.equal('code: Must not be empty.');
    const wrongKey = await api.post<ApiError>('/three-d-secure/challenge', {
      key: null,
      json: { token: token.body.id, key: 'pk_test_nonsense', outcome: 'complete', code: '123456' },
    });
    expect(wrongKey.status).to.equal(401);
    expect((await api.get<Token>(`/tokens/${token.body.id}`)).body.threeDSecureInfo?.liabilityShift).to.equal(
      'pending',
    );
    expect((await fetch(`${challengeUrl(token.body.id)}&origin=javascript:alert(1)`)).status).to.equal(400);
  });

  it("records the payer's browser data on tokens made with the public key, not with the secret key", async () => {
    // The test service trusts proxies on loopback (TRUST_PROXY=loopback), as behind a local
    // TLS-terminating proxy: the forwarded address is the payer's.
    const headers = {
      'user-agent': 'Mozilla/5.0 (Payer)',
      'accept-language': 'fr-FR,fr;q=0.9',
      'x-forwarded-for': '81.2.69.160',
      // A public client reaches the service through the TLS-terminating proxy only.
      'x-forwarded-proto': 'https',
    };
    const fromBrowser = await browser.post<Token>('/tokens', {
      json: { ...cardDetails(FRICTIONLESS), fraudCheckData: { email: 'payer@example.com', ipAddress: '10.9.9.9' } },
      headers,
    });
    const paid = await charge(fromBrowser.body.id);
    // The observed address replaces what the page claimed; what only the page knows is kept.
    expect(paid.body.card.fraudCheckData).to.deep.equal({
      email: 'payer@example.com',
      ipAddress: '81.2.69.160',
      ipCountry: 'GB',
      userAgent: 'Mozilla/5.0 (Payer)',
      acceptLanguage: 'fr-FR,fr;q=0.9',
    });
    const fromServer = await api.post<Token>('/tokens', { json: cardDetails(FRICTIONLESS), headers });
    expect((await charge(fromServer.body.id)).body.card.fraudCheckData).to.equal(null);
  });

  function challengeUrl(tokenId: string): string {
    const url = new URL('/three-d-secure/challenge', service.baseUrl);
    url.search = new URLSearchParams({
      token: tokenId,
      key: keys.testPublicKey,
      origin: MERCHANT_ORIGIN,
    }).toString();
    return url.toString();
  }
});

describe("the payer's IP address without a trusted proxy (TRUST_PROXY=false)", function () {
  this.timeout(60_000);
  const { api, keys } = useService({ env: { TRUST_PROXY: 'false' } });

  it("takes a forwarded address as the client's claim only: the connection's address is recorded", async () => {
    const token = await api.post<Token>('/tokens', {
      key: keys.testPublicKey,
      json: cardDetails('4242424242424242'),
      headers: { 'x-forwarded-for': '81.2.69.160' },
    });
    const paid = await api.post<Charge>('/charges', { json: { amount: 500, currency: 'EUR', card: token.body.id } });
    expect(paid.body.card.fraudCheckData).to.deep.include({ ipAddress: '127.0.0.1' });
    expect(paid.body.card.fraudCheckData).to.not.have.property('ipCountry');
  });
});

describe("the payer's IP address behind a load balancer (TRUST_PROXY=1)", function () {
  this.timeout(60_000);
  const { api, keys } = useService({ env: { TRUST_PROXY: '1' } });

  it('records the forwarded client address and its country (offline GeoIP) on a token made with the public key', async () => {
    const token = await api.post<Token>('/tokens', {
      key: keys.testPublicKey,
      json: cardDetails('4242424242424242'),
      headers: { 'x-forwarded-for': '81.2.69.160', 'x-forwarded-proto': 'https', 'user-agent': 'Payer/1.0' },
    });
    const paid = await api.post<Charge>('/charges', { json: { amount: 500, currency: 'GBP', card: token.body.id } });
    expect(paid.body.card.fraudCheckData).to.deep.include({ ipAddress: '81.2.69.160', ipCountry: 'GB' });
  });
});

describe('Shift4.js and the card field frames', function () {
  this.timeout(60_000);
  const { service, keys } = useService();

  it('serves the library with its version, a cache lifetime and an ETag that revalidates', async () => {
    const first = await fetch(`${service.baseUrl}/js/shift4.js`);
    expect(first.status).to.equal(200);
    expect(first.headers.get('content-type')).to.match(/^application\/javascript/);
    expect(first.headers.get('cache-control')).to.match(/max-age=\d+/);
    const etag = first.headers.get('etag')!;
    expect(etag).to.match(/^"[\w-]+"$/);
    const code = await first.text();
    expect(code).to.match(/^\/\*! shift4\.js \d+\.\d+\.\d+ \*\//);
    const again = await fetch(`${service.baseUrl}/js/shift4.js`, { headers: { 'if-none-match': etag } });
    expect(again.status).to.equal(304);
  });

  it('serves a field frame only to the origin that asks for it, and refuses bad parameters', async () => {
    const query = new URLSearchParams({
      field: 'number',
      origin: 'https://shop.example',
      group: '0123456789abcdef',
      key: keys.testPublicKey,
    });
    const page = await fetch(`${service.baseUrl}/js/fields/field.html?${query}`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-security-policy')).to.include('frame-ancestors https://shop.example');
    const html = await page.text();
    expect(html).to.include('autocomplete="cc-number"').and.include('<label');
    // shift4.js names a group in random letters a–p; hexadecimal (above) from scripts loaded before.
    query.set('group', 'kbnpaoehgdcmfjil');
    expect((await fetch(`${service.baseUrl}/js/fields/field.html?${query}`)).status).to.equal(200);
    query.set('group', 'group-<script>');
    expect((await fetch(`${service.baseUrl}/js/fields/field.html?${query}`)).status).to.equal(400);
    query.set('group', 'kbnpaoehgdcmfjil');
    query.set('field', 'password');
    expect((await fetch(`${service.baseUrl}/js/fields/field.html?${query}`)).status).to.equal(400);
    query.set('field', 'cvc');
    query.set('origin', 'https://shop.example/path');
    expect((await fetch(`${service.baseUrl}/js/fields/field.html?${query}`)).status).to.equal(400);
    expect((await fetch(`${service.baseUrl}/js/fields/fields.js`)).status).to.equal(200);
  });

  it('lets a field frame nested in a frame of the service be framed by both pages (ancestor=)', async () => {
    const query = new URLSearchParams({
      field: 'number',
      origin: service.baseUrl,
      group: '0123456789abcdef',
      key: keys.testPublicKey,
      ancestor: 'https://shop.example',
    });
    const page = await fetch(`${service.baseUrl}/js/fields/field.html?${query}`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-security-policy')).to.include(
      `frame-ancestors ${service.baseUrl} https://shop.example`,
    );
    query.set('ancestor', 'https://shop.example/checkout');
    expect((await fetch(`${service.baseUrl}/js/fields/field.html?${query}`)).status).to.equal(400);
  });

  it('serves the checkout library and the checkout page script', async () => {
    const library = await fetch(`${service.baseUrl}/js/checkout.js`);
    expect(library.status).to.equal(200);
    expect(await library.text()).to.match(/^\/\*! checkout\.js \d+\.\d+\.\d+ \*\//);
    const pageScript = await fetch(`${service.baseUrl}/js/checkout/checkout-page.js`);
    expect(pageScript.status).to.equal(200);
    expect(pageScript.headers.get('content-type')).to.match(/javascript/);
  });

  it("lets merchants' pages call the public-key endpoints across origins (CORS preflight)", async () => {
    const preflight = await fetch(`${service.baseUrl}/tokens/tok_x/three-d-secure`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers.get('access-control-allow-origin')).to.equal('*');
    expect(preflight.headers.get('access-control-allow-headers')).to.match(/Authorization/);
    const other = await fetch(`${service.baseUrl}/charges`, { method: 'OPTIONS' });
    expect(other.headers.get('access-control-allow-origin')).to.equal(null);
  });
});
