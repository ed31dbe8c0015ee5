import { accountDecider } from '../../../packages/domain/account/account-decider.ts';
import type { AccountEvent } from '../../../packages/domain/account/account-events.ts';
import { NotFoundError } from '../../../packages/domain/errors.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(accountDecider);
const created: AccountEvent = {
  type: 'AccountCreated',
  data: { accountId: 'acct_1', name: 'Shop', keys: [], settings: { subscriptionFailureStatus: 'canceled' } },
};

describe('account settings', () => {
  it('records the whole new settings when something changes, nothing otherwise', () => {
    spec([created])
      .when({ type: 'ChangeSettings', accountId: 'acct_1', settings: { subscriptionFailureStatus: 'unpaid' } })
      .then([
        {
          type: 'AccountSettingsChanged',
          data: { accountId: 'acct_1', settings: { subscriptionFailureStatus: 'unpaid' } },
        },
      ]);
    spec([created])
      .when({ type: 'ChangeSettings', accountId: 'acct_1', settings: { subscriptionFailureStatus: 'canceled' } })
      .then([]);
    spec([]).when({ type: 'ChangeSettings', accountId: 'acct_1', settings: {} }).thenThrows(NotFoundError);
  });
});
