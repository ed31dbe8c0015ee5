import { expect } from 'chai';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { signCheckoutRequest } from '../../packages/checkout/sign-checkout-request.ts';
import { useService } from '../support/use-service.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET whose body is read as sent (fetch would decode it). */
function rawGet(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

const decode = (answer: RawAnswer): string => {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(answer.body).toString('utf8');
  return answer.body.toString('utf8');
};

describe('scripts and pages served compressed (brotli, gzip) as the browser accepts', function () {
  this.timeout(60_000);
  const { service, keys } = useService();

  const scripts = ['/js/shift4.js', '/js/checkout.js', '/js/checkout/checkout-page.js', '/js/fields/fields.js'];

  it('answers each script in brotli, gzip or as it is, the same code each time, smaller compressed', async () => {
    for (const path of scripts) {
      const url = `${service.baseUrl}${path}`;
      const plain = await rawGet(url, { 'accept-encoding': 'identity' });
      expect(plain.status, path).to.equal(200);
      expect(plain.headers['content-encoding'], path).to.equal(undefined);
      expect(plain.headers.vary, path).to.match(/Accept-Encoding/i);
      for (const encoding of ['br', 'gzip'] as const) {
        const accepting = encoding === 'br' ? 'gzip, deflate, br' : 'gzip, deflate';
        const compressed = await rawGet(url, { 'accept-encoding': accepting });
        expect(compressed.headers['content-encoding'], `${path} ${encoding}`).to.equal(encoding);
        expect(decode(compressed), `${path} ${encoding}`).to.equal(plain.body.toString('utf8'));
        expect(compressed.body.length, `${path} ${encoding}`).to.be.below(plain.body.length / 2);
        // Each encoding has its own validator, and revalidates.
        const etag = String(compressed.headers.etag);
        expect(etag).not.to.equal(plain.headers.etag);
        const again = await rawGet(url, { 'accept-encoding': accepting, 'if-none-match': etag });
        expect(again.status, `${path} ${encoding} revalidated`).to.equal(304);
      }
    }
  });

  it("serves the libraries at the public hosts' paths too: /shift4.js and /checkout.js", async () => {
    for (const [publicPath, path] of [
      ['/shift4.js', '/js/shift4.js'],
      ['/checkout.js', '/js/checkout.js'],
    ] as const) {
      const answer = await rawGet(`${service.baseUrl}${publicPath}`, { 'accept-encoding': 'identity' });
      expect(answer.status, publicPath).to.equal(200);
      expect(answer.headers['content-type'], publicPath).to.match(/^application\/javascript/);
      const same = await rawGet(`${service.baseUrl}${path}`, { 'accept-encoding': 'identity' });
      expect(answer.body.equals(same.body), publicPath).to.equal(true);
    }
  });

  it('compresses the pages: the checkout page and a card field', async () => {
    const checkoutRequest = signCheckoutRequest({ charge: { amount: 1999, currency: 'EUR' } }, keys.testSecretKey);
    const checkout = `${service.baseUrl}/checkout?${new URLSearchParams({ key: keys.testPublicKey, checkoutRequest })}`;
    const field = `${service.baseUrl}/js/fields/field.html?${new URLSearchParams({
      field: 'number',
      origin: 'https://shop.example',
      group: '0123456789abcdef',
      key: keys.testPublicKey,
    })}`;
    for (const url of [checkout, field]) {
      const plain = await rawGet(url, { 'accept-encoding': 'identity' });
      const compressed = await rawGet(url, { 'accept-encoding': 'gzip, br' });
      expect(plain.status).to.equal(200);
      expect(compressed.headers['content-encoding']).to.equal('br');
      expect(compressed.headers['content-type']).to.match(/^text\/html/);
      expect(decode(compressed)).to.include('<!doctype html>');
      expect(compressed.body.length).to.be.below(plain.body.length);
    }
  });
});
