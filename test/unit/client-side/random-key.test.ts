import { expect } from 'chai';
import { containsCardNumber } from '../../../packages/network/card-numbers-in-text.ts';
import { randomKey } from '../../../packages/client-side/random-key.ts';

describe("the browser scripts' random keys (checkout's Idempotency-Keys, field groups)", () => {
  it('never hold a card number, so the service never refuses a payment for its key', () => {
    // Random hexadecimal of the same length reads as a card number about once in 350 keys.
    const keys = Array.from({ length: 20_000 }, () => `checkout_${randomKey(16)}`);
    expect(keys.filter((key) => containsCardNumber(key))).to.deep.equal([]);
    expect(keys.every((key) => /^checkout_[a-p]{32}$/.test(key))).to.equal(true);
  });

  it('are 128 random bits for a payment: twenty thousand keys are all different', () => {
    const keys = new Set(Array.from({ length: 20_000 }, () => randomKey(16)));
    expect(keys.size).to.equal(20_000);
  });
});
