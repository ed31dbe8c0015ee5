import {
  withDefaultSettings,
  type AccountEvent,
  type AccountSettings,
  type KeyKind,
} from '../packages/domain/account/account-events.ts';
import type { Mode } from '../packages/domain/mode.ts';
import type { Tenant } from '../packages/domain/tenant.ts';
import { ownedCollections, readModelCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { eventProjection } from './event-projection.ts';
import { occurredAtSeconds } from './event-time.ts';

/** An API key looked up by the SHA-256 of the key (the document id) at authentication. */
export interface ApiKeyDoc extends Tenant {
  id: string;
  created: number;
  _seq: number;
  keyId: string;
  kind: KeyKind;
  last4: string;
  vaultRef: string | null;
}

export interface AccountDoc {
  id: string;
  created: number;
  _seq: number;
  name: string;
  settings: AccountSettings;
  keys: { keyId: string; kind: KeyKind; mode: Mode; last4: string }[];
  /**
   * Accounts whose visible cross-sale offers this account may use (its partner list, in the
   * order added). Absent from documents written before partner lists existed: read as empty.
   */
  partnerIds?: string[];
}

/** An account's partner list as its document holds it. */
export const partnerIdsOf = (account: AccountDoc | null): string[] => account?.partnerIds ?? [];

export const accountsCollection = readModelCollection<AccountDoc>('accounts');
export const apiKeysCollection = readModelCollection<ApiKeyDoc>('api_keys');

/** `accounts`: accounts and the key lookup used by authentication. */
export const accountsProjection = eventProjection<AccountEvent>({
  name: 'accounts',
  collections: ownedCollections(accountsCollection, apiKeysCollection),
  on: {
    AccountCreated(event, tx) {
      const created = occurredAtSeconds(event);
      tx.put(accountsCollection, {
        id: event.data.accountId,
        created,
        _seq: event.position,
        name: event.data.name,
        settings: withDefaultSettings(event.data.settings),
        keys: event.data.keys.map(({ keyId, kind, mode, last4 }) => ({ keyId, kind, mode, last4 })),
        partnerIds: [],
      });
      for (const key of event.data.keys) {
        tx.put(apiKeysCollection, {
          id: key.keyHash,
          created,
          _seq: event.position,
          keyId: key.keyId,
          accountId: event.data.accountId,
          mode: key.mode,
          kind: key.kind,
          last4: key.last4,
          vaultRef: key.vaultRef,
        });
      }
    },
    async AccountSettingsChanged(event, tx) {
      const account = await tx.get(accountsCollection, event.data.accountId);
      if (account) tx.put(accountsCollection, { ...account, settings: withDefaultSettings(event.data.settings) });
    },
    async AccountPartnerAdded(event, tx) {
      const account = await tx.get(accountsCollection, event.data.accountId);
      const partnerIds = partnerIdsOf(account);
      if (account && !partnerIds.includes(event.data.partnerId))
        tx.put(accountsCollection, { ...account, partnerIds: [...partnerIds, event.data.partnerId] });
    },
    async AccountPartnerRemoved(event, tx) {
      const account = await tx.get(accountsCollection, event.data.accountId);
      if (account)
        tx.put(accountsCollection, {
          ...account,
          partnerIds: partnerIdsOf(account).filter((id) => id !== event.data.partnerId),
        });
    },
    // Processors are read from the account's stream by live mode, never from a read model.
    AccountProcessorAdded() {},
    AccountProcessorRemoved() {},
    AccountProcessorsReordered() {},
  },
});
