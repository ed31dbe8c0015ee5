import { accountDecider } from '../../../packages/domain/account/account-decider.ts';
import {
  defaultAccountSettings,
  type AccountEvent,
  type AccountProcessor,
  type ApiKeyRecord,
} from '../../../packages/domain/account/account-events.ts';
import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
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
  data: { accountId: 'acct_1', name: 'Shop', keys, settings: defaultAccountSettings() },
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

describe('account decider: partner list', () => {
  const added: AccountEvent = { type: 'AccountPartnerAdded', data: { accountId: 'acct_1', partnerId: 'acct_2' } };
  const removed: AccountEvent = { type: 'AccountPartnerRemoved', data: { accountId: 'acct_1', partnerId: 'acct_2' } };

  it('puts an existing account on the partner list', () => {
    spec([created])
      .when({ type: 'AddPartner', accountId: 'acct_1', partnerId: 'acct_2', partnerExists: true })
      .then([added]);
  });

  it('records nothing when the partner is listed already', () => {
    spec([created, added])
      .when({ type: 'AddPartner', accountId: 'acct_1', partnerId: 'acct_2', partnerExists: true })
      .then([]);
  });

  it('refuses an unknown partner account, the account itself and an unknown account', () => {
    spec([created])
      .when({ type: 'AddPartner', accountId: 'acct_1', partnerId: 'acct_9', partnerExists: false })
      .thenThrows(InvalidRequestError, /'acct_9' does not exist/);
    spec([created])
      .when({ type: 'AddPartner', accountId: 'acct_1', partnerId: 'acct_1', partnerExists: true })
      .thenThrows(InvalidRequestError, /its own partner/);
    spec([])
      .when({ type: 'AddPartner', accountId: 'acct_1', partnerId: 'acct_2', partnerExists: true })
      .thenThrows(NotFoundError, /acct_1/);
  });

  it('takes a partner off the list, and records nothing for one not on it', () => {
    spec([created, added]).when({ type: 'RemovePartner', accountId: 'acct_1', partnerId: 'acct_2' }).then([removed]);
    spec([created, added, removed]).when({ type: 'RemovePartner', accountId: 'acct_1', partnerId: 'acct_2' }).then([]);
    spec([created]).when({ type: 'RemovePartner', accountId: 'acct_1', partnerId: 'acct_2' }).then([]);
  });
});

describe('account decider: processors', () => {
  const processor = (processorId: string): AccountProcessor => ({
    processorId,
    kind: 'shift4',
    url: 'https://api.shift4.example',
    secretKeyRef: `vault_${processorId}`,
    secretKeyLast4: '9871',
    currencies: null,
    brands: null,
    timeoutMs: 30_000,
  });
  const added = (processorId: string): AccountEvent => ({
    type: 'AccountProcessorAdded',
    data: { accountId: 'acct_1', processor: processor(processorId) },
  });

  it('adds processors in order, once each', () => {
    spec([created])
      .when({ type: 'AddProcessor', accountId: 'acct_1', processor: processor('proc_1') })
      .then([added('proc_1')]);
    spec([created, added('proc_1')])
      .when({ type: 'AddProcessor', accountId: 'acct_1', processor: processor('proc_1') })
      .then([]);
    spec([])
      .when({ type: 'AddProcessor', accountId: 'acct_1', processor: processor('proc_1') })
      .thenThrows(NotFoundError);
  });

  it('reorders when every processor is named once, and records nothing for the same order', () => {
    const given = [created, added('proc_1'), added('proc_2')];
    spec(given)
      .when({ type: 'ReorderProcessors', accountId: 'acct_1', processorIds: ['proc_2', 'proc_1'] })
      .then([
        { type: 'AccountProcessorsReordered', data: { accountId: 'acct_1', processorIds: ['proc_2', 'proc_1'] } },
      ]);
    spec(given)
      .when({ type: 'ReorderProcessors', accountId: 'acct_1', processorIds: ['proc_1', 'proc_2'] })
      .then([]);
    for (const processorIds of [['proc_2'], ['proc_2', 'proc_2'], ['proc_2', 'proc_1', 'proc_3']])
      spec(given)
        .when({ type: 'ReorderProcessors', accountId: 'acct_1', processorIds })
        .thenThrows(InvalidRequestError, /every processor of the account exactly once/);
  });

  it('removes a processor it has, and refuses one it has not', () => {
    spec([created, added('proc_1')])
      .when({ type: 'RemoveProcessor', accountId: 'acct_1', processorId: 'proc_1' })
      .then([{ type: 'AccountProcessorRemoved', data: { accountId: 'acct_1', processorId: 'proc_1' } }]);
    spec([created])
      .when({ type: 'RemoveProcessor', accountId: 'acct_1', processorId: 'proc_1' })
      .thenThrows(InvalidRequestError, /no processor 'proc_1'/);
  });
});
