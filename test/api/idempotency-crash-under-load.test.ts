import { expect } from 'chai';
import type { ApiClient, ApiResponse } from '../support/api-client.ts';
import { useCrashingService } from '../support/crashing-service.ts';
import { cardDetails, type Charge, type Page } from '../support/payments.ts';
import { allEvents } from '../support/webhooks.ts';

const CHARGES = 24;
/** Time between two charges sent before the kill. */
const SEND_INTERVAL_MS = 2;

/**
 * A merchant's retrying client under load: charges with distinct Idempotency-Keys in flight when
 * the service is killed (SIGKILL as soon as one was answered, wherever each other request happens
 * to be), then every key sent again after the restart. Each key ends with exactly one charge and one CHARGE_SUCCEEDED, and every
 * answer given before the kill is the answer its retry gets.
 */
describe('idempotent charges in flight when the service is killed', function () {
  this.timeout(90_000);
  const service = useCrashingService();

  const charge = (api: ApiClient, n: number) =>
    api.post<Charge>('/charges', {
      json: { amount: 1000 + n, currency: 'USD', description: `load ${n}`, card: cardDetails('4242424242424242') },
      headers: { 'idempotency-key': `load-order-${n}` },
    });

  it('leaves one charge per key, and replays the answers that were given', async () => {
    let api = await service.start();
    const firstAnswers = new Map<number, ApiResponse<Charge>>();
    // Sent a few milliseconds apart, so that when the first answer comes the others are at every
    // stage of their work (concurrent requests sent at once move through commits in lockstep and
    // could all be answered together); the kill comes with that first answer.
    let answeredOnce!: () => void;
    const firstAnswer = new Promise<void>((resolve) => (answeredOnce = resolve));
    let answered = false;
    void firstAnswer.then(() => (answered = true));
    const inFlight: Promise<void>[] = [];
    for (let n = 0; n < CHARGES && !answered; n += 1) {
      inFlight.push(
        charge(api, n).then(
          (response) => {
            firstAnswers.set(n, response);
            answeredOnce();
          },
          () => undefined, // died with the process: never answered
        ),
      );
      await Promise.race([firstAnswer, new Promise((resolve) => setTimeout(resolve, SEND_INTERVAL_MS))]);
    }
    await firstAnswer;
    await service.kill();
    await Promise.all(inFlight);
    expect(firstAnswers.size, 'some requests were answered').to.be.above(0);
    expect(firstAnswers.size, 'some requests were cut short').to.be.below(inFlight.length);

    api = await service.start();
    const retries = await Promise.all(Array.from({ length: CHARGES }, (_, n) => charge(api, n)));
    for (const [n, retry] of retries.entries()) {
      expect(retry.status, `key ${n}: ${JSON.stringify(retry.body)}`).to.equal(200);
      expect(retry.body).to.include({ amount: 1000 + n, description: `load ${n}`, status: 'successful' });
      const first = firstAnswers.get(n);
      if (first) {
        expect(retry.headers.get('idempotent-replayed'), `key ${n}`).to.equal('true');
        expect(retry.body, `key ${n}`).to.deep.equal(first.body);
      }
    }

    const listed = (await api.get<Page<Charge>>('/charges', { query: { limit: '100' } })).body.list;
    expect(listed).to.have.length(CHARGES);
    expect(new Set(listed.map((listedCharge) => listedCharge.id))).to.deep.equal(
      new Set(retries.map((retry) => retry.body.id)),
    );
    const succeeded = [...(await allEvents(api)).values()].filter((event) => event.type === 'CHARGE_SUCCEEDED');
    expect(succeeded).to.have.length(CHARGES);
  });
});
