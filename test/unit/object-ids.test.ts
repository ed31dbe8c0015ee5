import { expect } from 'chai';
import { cardResource, customerResource } from '../../packages/domain/customer/customer-events.ts';
import { isIdOf, newId, randomBase62 } from '../../packages/ids/object-id.ts';

describe('object ids', () => {
  it('are 24 base62 characters after the prefix, and never repeat across many refills of the random pool', () => {
    const ids = new Set<string>();
    // 20,000 ids draw about 960 KB of random bytes: the 8 KiB pool is refilled over a hundred times.
    for (let i = 0; i < 20_000; i++) {
      const id = newId('req');
      expect(id).to.match(/^req_[0-9A-Za-z]{24}$/);
      ids.add(id);
    }
    expect(ids.size).to.equal(20_000);
  });

  it('gives random text of any length, also longer than the pool', () => {
    expect(randomBase62(32)).to.match(/^[0-9A-Za-z]{32}$/);
    expect(randomBase62(5000)).to.match(/^[0-9A-Za-z]{5000}$/);
  });

  it('spreads characters evenly over the alphabet', () => {
    const counts = new Map<string, number>();
    // In id-sized draws, so that the pooled source is what is measured.
    for (let i = 0; i < 2_600; i++) for (const char of randomBase62(24)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).to.equal(62);
    // About 1,000 each; far outside 800–1,200 would mean a biased or repeated source.
    for (const count of counts.values()) expect(count).to.be.within(800, 1200);
  });

  it("tell a resource's ids by its identity's prefix and the underscore, not by a prefix of the prefix", () => {
    expect(isIdOf(cardResource, newId(cardResource))).to.equal(true);
    expect(isIdOf(customerResource, newId(cardResource))).to.equal(false);
    // `cust` is the customer's prefix; `custom_…` is not one of its ids.
    expect(isIdOf(customerResource, 'custom_1')).to.equal(false);
    expect(isIdOf(cardResource, 'card')).to.equal(false);
  });
});
