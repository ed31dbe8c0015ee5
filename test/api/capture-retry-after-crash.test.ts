import { expect } from 'chai';
import { useCrashingService } from '../support/crashing-service.ts';
import { cardDetails, type Charge } from '../support/payments.ts';

/**
 * A capture sent with an Idempotency-Key and cut short by a crash after it was recorded (the
 * service killed before it answered) completes on retry with the answer a run without a crash
 * gives: the captured charge, not "already captured".
 */
describe('a capture across a crash of the service after it was recorded', function () {
  this.timeout(90_000);
  const service = useCrashingService();

  it('answers the retry with the captured charge, captured once', async () => {
    const authorized = await service.api.post<Charge>('/charges', {
      json: { amount: 2500, currency: 'EUR', card: cardDetails('4242424242424242'), captured: false },
    });
    expect(authorized.status, JSON.stringify(authorized.body)).to.equal(200);
    const capture = (api = service.api) =>
      api.post<Charge>(`/charges/${authorized.body.id}/capture`, { headers: { 'Idempotency-Key': 'capture-once' } });

    await service.crashAt('request.after-projection', (doomed) => capture(doomed));
    const api = await service.start();
    const retry = await capture(api);
    expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
    expect(retry.body).to.include({ id: authorized.body.id, captured: true, amount: 2500 });
    const captures = (await service.stream(`charge-${authorized.body.id}`)).filter(
      (event) => event.type === 'ChargeCaptured',
    );
    expect(captures).to.have.length(1);
    const again = await capture(api);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.deep.equal(retry.body);
    // Another capture, without the key or with another, is still refused.
    const other = await api.post<{ error: { message: string } }>(`/charges/${authorized.body.id}/capture`, {
      headers: { 'Idempotency-Key': 'capture-twice' },
    });
    expect(other.status).to.equal(400);
    expect(other.body.error.message).to.match(/already been captured/);
  });
});
