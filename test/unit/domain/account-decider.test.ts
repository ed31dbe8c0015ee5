import { accountDecider } from '../../../packages/domain/account/account-decider.ts';
import type { AccountEvent, ApiKeyRecord } from '../../../packages/domain/account/account-events.ts';
import { InvalidRequestError } from '../../../packages/domain/errors.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(accountDecider);

const key = (kind: ApiKeyRecord['kind'], mode: ApiKeyRecord['mode']): ApiKeyRecord => ({
  keyId: `key_${kind}_${mode}`,
  kind,
  mode,
  keyHash: `hash_${kind}_${mode}`,
  last4: 'abcd',
  vaultRef: kind === 'secret' ? `vault_${mode}` : null,
});
const keys = [key('secret', 'test'), key('public', 'test'), key('secret', 'live'), key('public', 'live')];
const created: AccountEvent = {
  type: 'AccountCreated',
  data: { accountId: 'acct_1', name: 'Shop', keys, settings: { subscriptionFailureStatus: 'canceled' } },
};

// ChangeSettings: account-settings.test.ts.
describe('account decider: CreateAccount', () => {
  it('opens an account with one secret and one public key per mode, and the default settings', () => {
    spec([]).when({ type: 'CreateAccount', accountId: 'acct_1', name: 'Shop', keys }).then([created]);
  });

  it('opens an account id once', () => {
    spec([created])
      .when({ type: 'CreateAccount', accountId: 'acct_1', name: 'Shop', keys })
      .thenThrows(InvalidRequestError, /already exists/);
  });

  it('refuses a missing, doubled or extra key', () => {
    const refused = /exactly one secret and one public key per mode/;
    spec([])
      .when({ type: 'CreateAccount', accountId: 'acct_1', name: 'Shop', keys: keys.slice(0, 3) })
      .thenThrows(InvalidRequestError, refused);
    spec([])
      .when({ type: 'CreateAccount', accountId: 'acct_1', name: 'Shop', keys: [...keys.slice(0, 3), keys[0]!] })
      .thenThrows(InvalidRequestError, refused);
    spec([])
      .when({ type: 'CreateAccount', accountId: 'acct_1', name: 'Shop', keys: [...keys, key('secret', 'test')] })
      .thenThrows(InvalidRequestError, refused);
  });
});
