import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError } from '../errors.ts';
import {
  defaultAccountSettings,
  withDefaultSettings,
  type AccountEvent,
  type AccountProcessor,
  type AccountSettings,
  type ApiKeyRecord,
} from './account-events.ts';

export type AccountCommand =
  | { type: 'CreateAccount'; accountId: string; name: string; keys: ApiKeyRecord[] }
  | { type: 'ChangeSettings'; accountId: string; settings: Partial<AccountSettings> }
  /** `partnerExists`: whether an account `partnerId` exists (looked up before deciding). */
  | { type: 'AddPartner'; accountId: string; partnerId: string; partnerExists: boolean }
  | { type: 'RemovePartner'; accountId: string; partnerId: string }
  | { type: 'AddProcessor'; accountId: string; processor: AccountProcessor }
  | { type: 'RemoveProcessor'; accountId: string; processorId: string }
  /** `processorIds`: every processor of the account, most preferred first. */
  | { type: 'ReorderProcessors'; accountId: string; processorIds: string[] };

export type AccountState =
  | { status: 'none' }
  | {
      status: 'open';
      accountId: string;
      name: string;
      keys: ApiKeyRecord[];
      settings: AccountSettings;
      /** Accounts whose visible cross-sale offers this account may use, in the order they were added. */
      partnerIds: string[];
      /** Upstream processors of live mode, most preferred first. */
      processors: AccountProcessor[];
    };

export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'AccountCreated':
        return {
          status: 'open',
          ...event.data,
          settings: withDefaultSettings(event.data.settings),
          partnerIds: [],
          processors: [],
        };
      case 'AccountSettingsChanged':
        return state.status === 'open' ? { ...state, settings: withDefaultSettings(event.data.settings) } : state;
      case 'AccountPartnerAdded':
        return state.status === 'open' ? { ...state, partnerIds: [...state.partnerIds, event.data.partnerId] } : state;
      case 'AccountPartnerRemoved':
        return state.status === 'open'
          ? { ...state, partnerIds: state.partnerIds.filter((id) => id !== event.data.partnerId) }
          : state;
      case 'AccountProcessorAdded':
        return state.status === 'open' ? { ...state, processors: [...state.processors, event.data.processor] } : state;
      case 'AccountProcessorRemoved':
        return state.status === 'open'
          ? { ...state, processors: state.processors.filter((p) => p.processorId !== event.data.processorId) }
          : state;
      case 'AccountProcessorsReordered':
        return state.status === 'open'
          ? {
              ...state,
              processors: event.data.processorIds.map((id) => state.processors.find((p) => p.processorId === id)!),
            }
          : state;
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
      case 'AddPartner': {
        if (state.status === 'none') throw new NotFoundError('Account', command.accountId);
        if (command.partnerId === command.accountId)
          throw new InvalidRequestError('An account cannot be its own partner', 'partnerId');
        if (!command.partnerExists)
          throw new InvalidRequestError(`Account '${command.partnerId}' does not exist`, 'partnerId');
        // Already a partner: nothing recorded.
        if (state.partnerIds.includes(command.partnerId)) return [];
        return [{ type: 'AccountPartnerAdded', data: { accountId: command.accountId, partnerId: command.partnerId } }];
      }
      case 'RemovePartner': {
        if (state.status === 'none') throw new NotFoundError('Account', command.accountId);
        // Not a partner: nothing recorded.
        if (!state.partnerIds.includes(command.partnerId)) return [];
        return [
          { type: 'AccountPartnerRemoved', data: { accountId: command.accountId, partnerId: command.partnerId } },
        ];
      }
      case 'AddProcessor': {
        if (state.status === 'none') throw new NotFoundError('Account', command.accountId);
        if (state.processors.some((p) => p.processorId === command.processor.processorId)) return [];
        return [
          { type: 'AccountProcessorAdded', data: { accountId: command.accountId, processor: command.processor } },
        ];
      }
      case 'RemoveProcessor': {
        if (state.status === 'none') throw new NotFoundError('Account', command.accountId);
        if (!state.processors.some((p) => p.processorId === command.processorId))
          throw new InvalidRequestError(`The account has no processor '${command.processorId}'`, 'processorId');
        return [
          { type: 'AccountProcessorRemoved', data: { accountId: command.accountId, processorId: command.processorId } },
        ];
      }
      case 'ReorderProcessors': {
        if (state.status === 'none') throw new NotFoundError('Account', command.accountId);
        const current = state.processors.map((p) => p.processorId);
        const named = new Set(command.processorIds);
        if (
          named.size !== command.processorIds.length ||
          named.size !== current.length ||
          current.some((id) => !named.has(id))
        )
          throw new InvalidRequestError(
            `Name every processor of the account exactly once (${current.join(', ')})`,
            'processorIds',
          );
        // Same order: nothing recorded.
        if (current.every((id, index) => command.processorIds[index] === id)) return [];
        return [
          {
            type: 'AccountProcessorsReordered',
            data: { accountId: command.accountId, processorIds: command.processorIds },
          },
        ];
      }
    }
  },
};
