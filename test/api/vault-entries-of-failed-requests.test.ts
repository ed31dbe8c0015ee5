import Database from 'better-sqlite3';
import { expect } from 'chai';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

type ErrorBody = { error: { type: string; code?: string; chargeId?: string } };

const details = (number = '4242424242424242') => ({ number, expMonth: '12', expYear: '2040', cvc: '123' });
/** Longer than the events file waits before a vault entry without an append commits on its own. */
const ENTRY_COMMIT_WAIT_MS = 400;

describe('card numbers in the vault only for cards that exist', function () {
  this.timeout(60_000);
  const { api, service, keys } = useService();

  before('allow credits: the business model of this account does', async () => {
    const allowed = await runCli(['accounts', 'settings', keys.id, '--credits', 'allowed'], service.dataDir);
    expect(allowed.code, allowed.stderr).to.equal(0);
  });

  /** Card numbers in the vault, as the events file holds them (read beside the running service). */
  async function cardNumbersInVault(): Promise<number> {
    await sleep(ENTRY_COMMIT_WAIT_MS);
    const db = new Database(join(service.dataDir, 'events.sqlite'), { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare("SELECT count(*) AS n FROM vault_entries WHERE kind = 'card_number'").get() as {
        n: number;
      };
      return row.n;
    } finally {
      db.close();
    }
  }

  it('keeps the number of a charge that was recorded, declined ones too', async () => {
    const before = await cardNumbersInVault();
    expect((await api.post('/charges', { json: { amount: 100, currency: 'EUR', card: details() } })).status).to.equal(
      200,
    );
    const declined = await api.post<ErrorBody>('/charges', {
      json: { amount: 100, currency: 'EUR', card: details('4000000000000002') },
    });
    expect(declined.status).to.equal(402);
    expect(declined.body.error.chargeId).to.match(/^char_/);
    expect(await cardNumbersInVault()).to.equal(before + 2);
  });

  it('erases the number of a live charge or credit that failed before anything recorded its card', async () => {
    const before = await cardNumbersInVault();
    const live = api.withKey(keys.liveSecretKey);
    const charge = await live.post<ErrorBody>('/charges', { json: { amount: 100, currency: 'EUR', card: details() } });
    expect(charge.status).to.equal(502);
    expect(charge.body.error.type).to.equal('gateway_error');
    const credit = await live.post<ErrorBody>('/credits', { json: { amount: 100, currency: 'EUR', card: details() } });
    expect(credit.status).to.equal(502);
    expect(await cardNumbersInVault()).to.equal(before);
  });
});
