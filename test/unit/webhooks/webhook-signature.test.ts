import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { signatureHeader, verifySignature } from '../../../packages/webhooks/webhook-signature.ts';

const secret = 'whsec_test';
const body = '{"id":"event_1","type":"CHARGE_SUCCEEDED"}';
const now = 1_700_000_000;

describe('webhook signature (Shift4-Signature)', () => {
  it('is t=<timestamp>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    const expected = createHmac('sha256', secret).update(`${now}.${body}`).digest('hex');
    expect(signatureHeader(secret, body, now)).to.equal(`t=${now},v1=${expected}`);
  });

  it('verifies with the secret, the exact body and a recent timestamp', () => {
    expect(verifySignature(secret, body, signatureHeader(secret, body, now), { now })).to.equal(true);
    expect(verifySignature(secret, body, signatureHeader(secret, body, now - 299), { now })).to.equal(true);
  });

  it('refuses another secret, a changed body, an old or future timestamp, and junk', () => {
    const header = signatureHeader(secret, body, now);
    expect(verifySignature('whsec_other', body, header, { now })).to.equal(false);
    expect(verifySignature(secret, body.replace('1', '2'), header, { now })).to.equal(false);
    expect(verifySignature(secret, body, header, { now: now + 301 })).to.equal(false);
    expect(verifySignature(secret, body, header, { now: now - 301 })).to.equal(false);
    expect(verifySignature(secret, body, undefined, { now })).to.equal(false);
    expect(verifySignature(secret, body, 'v1=abc', { now })).to.equal(false);
    expect(verifySignature(secret, body, `t=${now},v1=zz`, { now })).to.equal(false);
  });

  it('accepts any matching v1 among several', () => {
    const good = signatureHeader(secret, body, now);
    expect(verifySignature(secret, body, `t=${now},v1=${'0'.repeat(64)},${good.split(',')[1]}`, { now })).to.equal(
      true,
    );
  });
});
