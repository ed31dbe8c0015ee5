import { expect } from 'chai';
import { OPEN_AFTER_TIMEOUTS, WebhookCircuits, type CircuitChange } from '../../../services/worker/webhook-circuits.ts';

describe('webhook endpoint circuits of a worker process', () => {
  const [TIMED_OUT, IN_TIME] = [true, false];
  const endpoint = { endpointId: 'we_hang', accountId: 'acct_1', mode: 'test' as const };

  it('opens after attempts in a row that timed out, and any attempt that ends in time closes it', () => {
    const changes: CircuitChange['change'][] = [];
    const circuits = new WebhookCircuits(
      (change) => changes.push(change.change),
      () => 1_000,
    );
    for (let i = 1; i < OPEN_AFTER_TIMEOUTS; i++) circuits.record(endpoint, TIMED_OUT);
    expect(circuits.isOpen('we_hang')).to.equal(false);
    circuits.record(endpoint, TIMED_OUT);
    expect(circuits.isOpen('we_hang')).to.equal(true);
    expect(circuits.open()).to.deep.equal([
      { ...endpoint, openedAt: 1_000, timeouts: OPEN_AFTER_TIMEOUTS, lastTimeoutAt: 1_000 },
    ]);
    circuits.record(endpoint, TIMED_OUT);
    circuits.record(endpoint, IN_TIME);
    expect(circuits.isOpen('we_hang')).to.equal(false);
    expect(circuits.open()).to.deep.equal([]);
    expect(changes).to.deep.equal(['opened', 'still-open', 'closed']);
  });

  it('starts counting afresh after an attempt that ended in time', () => {
    const circuits = new WebhookCircuits();
    for (let i = 1; i < OPEN_AFTER_TIMEOUTS; i++) circuits.record(endpoint, TIMED_OUT);
    circuits.record(endpoint, IN_TIME);
    circuits.record(endpoint, TIMED_OUT);
    expect(circuits.isOpen('we_hang')).to.equal(false);
  });
});
