import { expect } from 'chai';
import { isConnectionError } from '../../../packages/observability/outage-reporter.ts';

describe('telling a lost connection from other failures', function () {
  it('counts the errors of a Redis that is away, never reached or refusing, which the scheduler waits out quietly', function () {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6390'), { code: 'ECONNREFUSED' });
    expect(isConnectionError(refused)).to.equal(true);
    expect(isConnectionError(new Error('Redis is unreachable: connect ECONNREFUSED 127.0.0.1:6390'))).to.equal(true);
    expect(isConnectionError(new Error('Redis is unreachable (connection reconnecting)'))).to.equal(true);
    expect(isConnectionError(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).to.equal(
      true,
    );
  });

  it('does not count failures of the work itself', function () {
    expect(isConnectionError(new Error('No such queue: refunds'))).to.equal(false);
    expect(isConnectionError('ECONNREFUSED')).to.equal(false);
  });
});
