import { streamName } from '../resources.ts';
import type { DomainEvent } from '../decider.ts';

/** Stream of one account: `account-<accountId>`. */
export const accountStream = (accountId: string): string => streamName('account', accountId);

export type KeyKind = 'secret' | 'public';
import type { Mode } from '../mode.ts';
import { everyType } from '../event-types.ts';

/**
 * An API key as recorded: never the key itself for secret keys. `keyHash` (SHA-256 of the key)
 * finds the key at authentication; `vaultRef` points at the encrypted secret key (needed to verify
 * checkout signatures).
 */
export interface ApiKeyRecord {
  keyId: string;
  kind: KeyKind;
  mode: Mode;
  keyHash: string;
  /** Last four characters, to tell keys apart in listings. */
  last4: string;
  vaultRef: string | null;
}

export interface AccountSettings {
  /** What a subscription becomes when every renewal retry failed. */
  subscriptionFailureStatus: 'canceled' | 'unpaid';
}

export const defaultAccountSettings = (): AccountSettings => ({ subscriptionFailureStatus: 'canceled' });

export type AccountCreated = DomainEvent<
  'AccountCreated',
  { accountId: string; name: string; keys: ApiKeyRecord[]; settings: AccountSettings }
>;

/** Settings changed by an operator (`accounts settings`); carries the whole new settings. */
export type AccountSettingsChanged = DomainEvent<
  'AccountSettingsChanged',
  { accountId: string; settings: AccountSettings }
>;

export type AccountEvent = AccountCreated | AccountSettingsChanged;

export const accountEventTypes = everyType<AccountEvent>()(['AccountCreated', 'AccountSettingsChanged']);
