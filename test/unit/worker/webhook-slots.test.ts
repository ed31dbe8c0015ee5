import { expect } from 'chai';
import { WebhookSlots, type SlotClaim } from '../../../services/worker/webhook-slots.ts';

describe('webhook slots of a worker process', () => {
  let now = 0;
  const slots = () => new WebhookSlots({ perEndpoint: 2, perAccount: 3, total: 5 }, 2_000, () => now);
  const granted = (claim: SlotClaim) => {
    if (!claim.granted) throw new Error(`turned away for ${claim.retryInMs} ms`);
    return claim;
  };

  beforeEach(() => {
    now = 1_000_000;
  });

  it('gives an endpoint at most its share, and frees a slot on release', () => {
    const limits = slots();
    const first = granted(limits.claim('we_a', 'acct_1:test', 'job-1'));
    granted(limits.claim('we_a', 'acct_1:test', 'job-2'));
    expect(limits.claim('we_a', 'acct_1:test', 'job-3').granted).to.equal(false);
    expect(limits.inFlight('we_a')).to.equal(2);
    first.release();
    first.release(); // twice changes nothing
    expect(limits.inFlight('we_a')).to.equal(1);
    expect(limits.claim('we_a', 'acct_1:test', 'job-3').granted).to.equal(true);
  });

  it('gives an account at most its share over all its endpoints, and other accounts theirs', () => {
    const limits = slots();
    granted(limits.claim('we_a', 'acct_1:test', 'job-1'));
    granted(limits.claim('we_a', 'acct_1:test', 'job-2'));
    granted(limits.claim('we_b', 'acct_1:test', 'job-3'));
    expect(limits.claim('we_c', 'acct_1:test', 'job-4').granted).to.equal(false);
    expect(limits.claim('we_d', 'acct_2:test', 'job-5').granted).to.equal(true);
    expect(limits.claim('we_d', 'acct_1:live', 'job-6').granted).to.equal(true);
  });

  it('holds the whole process to its total, over every account', () => {
    const limits = slots();
    for (const [n, account] of ['acct_1', 'acct_2', 'acct_3', 'acct_4', 'acct_5'].entries())
      granted(limits.claim(`we_${n}`, `${account}:test`, `job-${n}`));
    expect(limits.claim('we_9', 'acct_9:test', 'job-9').granted).to.equal(false);
  });

  it('gives an endpoint with an open circuit one attempt at a time, the others back when the probe times out', () => {
    const limits = slots();
    const probe = granted(limits.claim('we_a', 'acct_1:test', 'job-1', true));
    now += 500;
    const parked = limits.claim('we_a', 'acct_1:test', 'job-2', true);
    expect(parked.granted === false && parked.retryInMs).to.be.within(1_500, 2_250);
    // Other endpoints of the account are not held back by it.
    granted(limits.claim('we_b', 'acct_1:test', 'job-3'));
    probe.release();
    granted(limits.claim('we_a', 'acct_1:test', 'job-2', true));
  });

  it('turns a job away for about as long as the oldest attempt has run, doubling each time, at most ~5 s', () => {
    const limits = slots();
    granted(limits.claim('we_a', 'acct_1:test', 'job-1'));
    granted(limits.claim('we_a', 'acct_1:test', 'job-2'));
    now += 400;
    const waits = [1, 2, 3, 4, 5, 6].map(() => {
      const claim = limits.claim('we_a', 'acct_1:test', 'job-3');
      if (claim.granted) throw new Error('granted');
      return claim.retryInMs;
    });
    const bases = [400, 800, 1600, 3200, 5000, 5000];
    waits.forEach((wait, index) =>
      expect(wait, `turn-away ${index + 1}`).to.be.within(bases[index]!, bases[index]! * 1.5),
    );
    // Another job of the same endpoint starts at the short wait.
    const other = limits.claim('we_a', 'acct_1:test', 'job-4');
    expect(other.granted === false && other.retryInMs).to.be.within(400, 600);
  });
});
