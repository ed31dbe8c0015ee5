import { accountDecider } from '../../../packages/domain/account/account-decider.ts';
import {
  defaultAccountSettings,
  type AccountEvent,
  type AccountSettings,
} from '../../../packages/domain/account/account-events.ts';
import { NotFoundError } from '../../../packages/domain/errors.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(accountDecider);
const created: AccountEvent = {
  type: 'AccountCreated',
  data: { accountId: 'acct_1', name: 'Shop', keys: [], settings: defaultAccountSettings() },
};
/** An account created before currencies, brands and credits were settings. */
const createdEarlier: AccountEvent = {
  type: 'AccountCreated',
  data: {
    accountId: 'acct_1',
    name: 'Shop',
    keys: [],
    settings: { subscriptionFailureStatus: 'unpaid' } as AccountSettings,
  },
};

describe('account settings', () => {
  it('records the whole new settings when something changes, nothing otherwise', () => {
    spec([created])
      .when({ type: 'ChangeSettings', accountId: 'acct_1', settings: { subscriptionFailureStatus: 'unpaid' } })
      .then([
        {
          type: 'AccountSettingsChanged',
          data: { accountId: 'acct_1', settings: { ...defaultAccountSettings(), subscriptionFailureStatus: 'unpaid' } },
        },
      ]);
    spec([created])
      .when({ type: 'ChangeSettings', accountId: 'acct_1', settings: { subscriptionFailureStatus: 'canceled' } })
      .then([]);
    spec([]).when({ type: 'ChangeSettings', accountId: 'acct_1', settings: {} }).thenThrows(NotFoundError);
  });

  it('gives settings recorded before a setting existed its default', () => {
    spec([createdEarlier])
      .when({
        type: 'ChangeSettings',
        accountId: 'acct_1',
        settings: { acceptedCurrencies: ['EUR', 'USD'], creditsAllowed: true },
      })
      .then([
        {
          type: 'AccountSettingsChanged',
          data: {
            accountId: 'acct_1',
            settings: {
              subscriptionFailureStatus: 'unpaid',
              acceptedCurrencies: ['EUR', 'USD'],
              acceptedBrands: null,
              creditsAllowed: true,
              checkoutOrigins: [],
            },
          },
        },
      ]);
  });
});
