import type { AccountEvent } from '../packages/domain/account/account-events.ts';
import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { Document } from '../packages/readstore/document-store.ts';
import type { Projection } from '../packages/projection/projection.ts';
import { occurredAtSeconds } from './event-time.ts';
import type { Mode } from '../packages/domain/mode.ts';

/** An API key looked up by the SHA-256 of the key (the document id) at authentication. */
export interface ApiKeyDoc extends Document {
  keyId: string;
  accountId: string;
  mode: Mode;
  kind: 'secret' | 'public';
  last4: string;
  vaultRef: string | null;
}

export interface AccountDoc extends Document {
  name: string;
  settings: Record<string, unknown>;
  keys: { keyId: string; kind: string; mode: string; last4: string }[];
}

/** `accounts`: accounts and the key lookup used by authentication. */
export const accountsProjection: Projection = {
  name: 'accounts',
  collections: { accounts: {}, api_keys: {} },
  handles: (type) => type === 'AccountCreated' || type === 'AccountSettingsChanged',
  async apply(recorded: RecordedEvent, tx) {
    const event = recorded as unknown as RecordedEvent & AccountEvent;
    if (event.type === 'AccountSettingsChanged') {
      const account = await tx.get<AccountDoc>('accounts', event.data.accountId);
      if (account) tx.put('accounts', { ...account, settings: { ...event.data.settings } });
      return;
    }
    const created = occurredAtSeconds(recorded);
    tx.put('accounts', {
      id: event.data.accountId,
      created,
      _seq: recorded.position,
      name: event.data.name,
      settings: { ...event.data.settings },
      keys: event.data.keys.map(({ keyId, kind, mode, last4 }) => ({ keyId, kind, mode, last4 })),
    } satisfies AccountDoc);
    for (const key of event.data.keys) {
      tx.put('api_keys', {
        id: key.keyHash,
        created,
        _seq: recorded.position,
        keyId: key.keyId,
        accountId: event.data.accountId,
        mode: key.mode,
        kind: key.kind,
        last4: key.last4,
        vaultRef: key.vaultRef,
      } satisfies ApiKeyDoc);
    }
  },
};
