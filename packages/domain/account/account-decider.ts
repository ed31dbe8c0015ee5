import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError } from '../errors.ts';
import {
  defaultAccountSettings,
  withDefaultSettings,
  type AccountEvent,
  type AccountSettings,
  type ApiKeyRecord,
} from './account-events.ts';

export type AccountCommand =
  | { type: 'CreateAccount'; accountId: string; name: string; keys: ApiKeyRecord[] }
  | { type: 'ChangeSettings'; accountId: string; settings: Partial<AccountSettings> };

export type AccountState =
  | { status: 'none' }
  | { status: 'open'; accountId: string; name: string; keys: ApiKeyRecord[]; settings: AccountSettings };

export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'AccountCreated':
        return { status: 'open', ...event.data, settings: withDefaultSettings(event.data.settings) };
      case 'AccountSettingsChanged':
        return state.status === 'open' ? { ...state, settings: withDefaultSettings(event.data.settings) } : state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateAccount': {
        if (state.status !== 'none') throw new InvalidRequestError(`Account '${command.accountId}' already exists`);
        const kinds = new Set(command.keys.map((key) => `${key.kind}:${key.mode}`));
        if (kinds.size !== 4 || command.keys.length !== 4) {
          throw new InvalidRequestError('An account has exactly one secret and one public key per mode');
        }
        return [
          {
            type: 'AccountCreated',
            data: {
              accountId: command.accountId,
              name: command.name,
              keys: command.keys,
              settings: defaultAccountSettings(),
            },
          },
        ];
      }
      case 'ChangeSettings': {
        if (state.status === 'none') throw new NotFoundError('Account', command.accountId);
        const settings = { ...state.settings, ...command.settings };
        // Nothing changed: nothing recorded.
        if (JSON.stringify(settings) === JSON.stringify(state.settings)) return [];
        return [{ type: 'AccountSettingsChanged', data: { accountId: command.accountId, settings } }];
      }
    }
  },
};
