import { expect } from 'chai';
import { defaultAccountSettings, type AccountEvent } from '../../../packages/domain/account/account-events.ts';
import { accountsCollection, accountsProjection, apiKeysCollection } from '../../../projections/accounts-projection.ts';
import { seconds } from './fixtures.ts';
import { inStream, projectionSpec } from './projection-spec.ts';

const account = inStream('account-acct_1');
const at = '2026-01-01T00:00:00Z';

describe('accounts projection', () => {
  const spec = projectionSpec(accountsProjection);

  it('finds each key by its hash for authentication, and keeps the account with its settings', async () => {
    await spec().given(
      account<AccountEvent>(
        {
          type: 'AccountCreated',
          data: {
            accountId: 'acct_1',
            name: 'Shop',
            keys: [
              { keyId: 'key_1', kind: 'secret', mode: 'test', keyHash: 'hash_1', last4: 'abcd', vaultRef: 'vault_k1' },
              { keyId: 'key_2', kind: 'public', mode: 'live', keyHash: 'hash_2', last4: 'efgh', vaultRef: null },
            ],
            settings: defaultAccountSettings(),
          },
        },
        at,
      ),
    );
    expect(await spec().get(apiKeysCollection, 'hash_1')).to.include({
      keyId: 'key_1',
      accountId: 'acct_1',
      mode: 'test',
      kind: 'secret',
      last4: 'abcd',
      created: seconds(at),
    });
    expect(await spec().get(apiKeysCollection, 'hash_2')).to.include({ mode: 'live', kind: 'public' });
    await spec().given(
      account<AccountEvent>({
        type: 'AccountSettingsChanged',
        data: { accountId: 'acct_1', settings: { ...defaultAccountSettings(), subscriptionFailureStatus: 'unpaid' } },
      }),
    );
    const doc = (await spec().get(accountsCollection, 'acct_1'))!;
    expect(doc).to.include({ name: 'Shop' });
    expect(doc.settings).to.deep.equal({ ...defaultAccountSettings(), subscriptionFailureStatus: 'unpaid' });
    expect(doc.keys).to.deep.equal([
      { keyId: 'key_1', kind: 'secret', mode: 'test', last4: 'abcd' },
      { keyId: 'key_2', kind: 'public', mode: 'live', last4: 'efgh' },
    ]);
    expect(JSON.stringify(doc)).to.not.include('hash_1');
    expect(doc.partnerIds).to.deep.equal([]);
    await spec().given(
      account<AccountEvent>({ type: 'AccountPartnerAdded', data: { accountId: 'acct_1', partnerId: 'acct_2' } }),
      account<AccountEvent>({ type: 'AccountPartnerAdded', data: { accountId: 'acct_1', partnerId: 'acct_3' } }),
      account<AccountEvent>({ type: 'AccountPartnerRemoved', data: { accountId: 'acct_1', partnerId: 'acct_2' } }),
    );
    expect((await spec().get(accountsCollection, 'acct_1'))!.partnerIds).to.deep.equal(['acct_3']);
    await spec().expectRebuildIdentical();
  });
});
