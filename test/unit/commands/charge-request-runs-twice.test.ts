import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount } from '../../../packages/commands/account-commands.ts';
import type { CommandContext } from '../../../packages/commands/command-context.ts';
import { loadConfig } from '../../../packages/config/environment.ts';
import { PaymentDeclined } from '../../../packages/commands/payment-declined.ts';
import { openPlatform, type Platform } from '../../../services/platform.ts';
import type { CardDetailsInput } from '../../../packages/commands/card-intake.ts';
import { FUTURE_YEAR } from '../../support/payments.ts';

/**
 * The same idempotent charge request run twice at once, as happens when a duplicate takes over a
 * request whose process only looked dead (its heartbeat stalled): one charge, one authorization
 * intent, one outcome, and both runs answer with that charge. On the real embedded stores.
 */
describe('a charge request run twice at once', function () {
  this.timeout(20_000);
  let dataDir: string;
  let platform: Platform;
  let accountId: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'payments-twice-'));
    platform = await openPlatform(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error' }));
    // A real account: charges read its settings (accepted currencies and brands).
    ({ id: accountId } = await createAccount(platform, 'Twice', {
      actor: 'system:test',
      requestId: 'req_account',
      now: () => new Date(),
    }));
  });

  after(async () => {
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const context = (requestToken: string): CommandContext => ({
    accountId,
    mode: 'test',
    actor: 'key_twice',
    requestId: 'req_twice',
    idempotencyKey: 'order-twice',
    requestToken,
    now: () => new Date(),
  });

  const card = (number: string): CardDetailsInput => ({ number, expMonth: 12, expYear: FUTURE_YEAR, cvc: '123' });
  const typesOf = async (streamId: string) => (await platform.events.readStream(streamId)).map((event) => event.type);

  it('makes one charge, and both runs answer with it', async () => {
    const run = () =>
      platform.commands.charges.create(
        { amount: 990, currency: 'EUR', card: card('4242424242424242') },
        context('token-of-one-request'),
      );
    const [first, second] = await Promise.all([run(), run()]);
    expect(second.id).to.equal(first.id);
    expect(await typesOf(`charge-${first.id}`)).to.deep.equal(['ChargeSucceeded']);
    expect(await typesOf(`chargeAuthorization-${first.id}`)).to.deep.equal(['ChargeAuthorizationStarted']);
  });

  it('declines once, and both runs answer with the same decline', async () => {
    const run = () =>
      platform.commands.charges
        .create(
          { amount: 990, currency: 'EUR', card: card('4000000000000002') },
          context('token-of-a-declined-request'),
        )
        .then(
          () => null,
          (error: unknown) => error,
        );
    const [first, second] = await Promise.all([run(), run()]);
    expect(first).to.be.instanceOf(PaymentDeclined);
    expect(second).to.be.instanceOf(PaymentDeclined);
    const chargeId = (first as PaymentDeclined).outcome.id;
    expect((second as PaymentDeclined).outcome.id).to.equal(chargeId);
    expect((second as PaymentDeclined).cardError.code).to.equal((first as PaymentDeclined).cardError.code);
    expect(await typesOf(`charge-${chargeId}`)).to.deep.equal(['ChargeFailed']);
  });
});
