import { expect } from 'chai';
import {
  OPEN_AFTER_UNANSWERED,
  WebhookCircuits,
  type CircuitChange,
} from '../../../services/worker/webhook-circuits.ts';

describe('webhook endpoint circuits of a worker process', () => {
  const endpoint = { endpointId: 'we_hang', accountId: 'acct_1', mode: 'test' as const };

  it('opens after attempts in a row without an answer, and any answer closes it', () => {
    const changes: CircuitChange['change'][] = [];
    const circuits = new WebhookCircuits(
      (change) => changes.push(change.change),
      () => 1_000,
    );
    for (let i = 1; i < OPEN_AFTER_UNANSWERED; i++) circuits.record(endpoint, false);
    expect(circuits.isOpen('we_hang')).to.equal(false);
    circuits.record(endpoint, false);
    expect(circuits.isOpen('we_hang')).to.equal(true);
    expect(circuits.open()).to.deep.equal([
      { ...endpoint, openedAt: 1_000, unanswered: OPEN_AFTER_UNANSWERED, lastUnansweredAt: 1_000 },
    ]);
    circuits.record(endpoint, false);
    circuits.record(endpoint, true);
    expect(circuits.isOpen('we_hang')).to.equal(false);
    expect(circuits.open()).to.deep.equal([]);
    expect(changes).to.deep.equal(['opened', 'still-open', 'closed']);
  });

  it('starts counting afresh after an answer', () => {
    const circuits = new WebhookCircuits();
    for (let i = 1; i < OPEN_AFTER_UNANSWERED; i++) circuits.record(endpoint, false);
    circuits.record(endpoint, true);
    circuits.record(endpoint, false);
    expect(circuits.isOpen('we_hang')).to.equal(false);
  });
});
