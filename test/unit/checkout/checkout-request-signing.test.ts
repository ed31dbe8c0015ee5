import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { signCheckoutRequest } from '../../../packages/checkout/sign-checkout-request.ts';
import { decodeSignedCheckoutRequest, signatureMatches } from '../../../packages/checkout/signed-checkout-request.ts';
import { runCli } from '../../support/service-process.ts';

describe('checkout request signing', () => {
  const key = 'sk_test_0123456789abcdef';
  const json = '{"charge":{"amount":1000,"currency":"EUR"}}';

  it('is BASE64 of the hexadecimal HMAC SHA-256 of the JSON text, a pipe and the text', () => {
    const hmac = createHmac('sha256', key).update(json).digest('hex');
    expect(Buffer.from(signCheckoutRequest(json, key), 'base64').toString()).to.equal(`${hmac}|${json}`);
    expect(signCheckoutRequest(JSON.parse(json) as object, key)).to.equal(signCheckoutRequest(json, key));
  });

  it('signs as the public Shift4 client libraries do (their published example)', () => {
    // The example key and signed request of the public shift4-node library's checkout request tests.
    const signed =
      'NTk1MjY3MmZjMjdjMjdkZjEyNDlhYjA3YTQ4NDE2NDdhYzcwOGM1MzdjYWQ3MDhjNDRlZWVkMDIzOWI0OTc0Ynx7ImNoYXJnZSI6eyJhbW91bnQiOjQ5OSwiY3VycmVuY3kiOiJFVVIifX0=';
    expect(
      signCheckoutRequest({ charge: { amount: 499, currency: 'EUR' } }, 'pr_test_bu0GRzw3MzhT10fpxa1j9OHJ'),
    ).to.equal(signed);
  });

  it('verifies with the same key only, and not once the JSON text changed', () => {
    const decoded = decodeSignedCheckoutRequest(signCheckoutRequest(json, key))!;
    expect(decoded.json).to.equal(json);
    expect(signatureMatches(decoded, key)).to.equal(true);
    expect(signatureMatches(decoded, 'sk_test_other')).to.equal(false);
    expect(signatureMatches({ ...decoded, json: json.replace('1000', '1') }, key)).to.equal(false);
  });

  it('accepts URL-safe BASE64 and refuses what is not a signed request', () => {
    const urlSafe = signCheckoutRequest('{"charge":{"amount":1,"currency":"EUR"},"x":"???>>>"}', key)
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    expect(decodeSignedCheckoutRequest(urlSafe)).to.not.equal(null);
    for (const text of ['', 'abc', Buffer.from('nopipe').toString('base64'), Buffer.from('xyz|{}').toString('base64')])
      expect(decodeSignedCheckoutRequest(text), text).to.equal(null);
  });

  it('is what `npm run cli -- checkout sign` prints, which refuses an invalid request', async function () {
    this.timeout(30_000);
    const signed = await runCli(['checkout', 'sign', '--key', key, '--request', json, '--json'], '/nonexistent');
    expect(signed.code, signed.stderr).to.equal(0);
    expect(JSON.parse(signed.stdout)).to.deep.equal({ checkoutRequest: signCheckoutRequest(json, key) });
    const invalid = await runCli(
      ['checkout', 'sign', '--key', key, '--request', '{"charge":{"amount":-5}}'],
      '/nonexistent',
    );
    expect(invalid.code).to.equal(1);
    expect(invalid.stderr).to.match(/charge\[amount\]/);
  });
});
