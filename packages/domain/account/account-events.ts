import type { CardBrand } from '../card/card-snapshot.ts';
import { resourceIdentity, streamName } from '../resource-identity.ts';
import type { DomainEvent } from '../decider.ts';

export const accountResource = resourceIdentity({ name: 'account', idPrefix: 'acct', stream: 'own' });

/** Stream of one account: `account-<accountId>`. */
export const accountStream = (accountId: string): string => streamName(accountResource, accountId);

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
  /** Currencies charges may be made in (upper-case ISO 4217 codes); null: every currency. */
  acceptedCurrencies: string[] | null;
  /** Card brands charges may be made with; null: every brand. */
  acceptedBrands: CardBrand[] | null;
  /** Whether the account's business model allows credits (transfers of funds to a card). */
  creditsAllowed: boolean;
  /**
   * Origins (`https://shop.example`) of the merchant's sites, the only pages that may frame the
   * account's hosted checkout; live checkout opens only when there is at least one.
   */
  checkoutOrigins: string[];
}

/**
 * Settings of a new account, and of settings recorded before a setting existed: every currency
 * and brand accepted, credits not allowed until an operator allows them (spec: credits are for
 * selected business models only), no site named for checkout.
 */
export const defaultAccountSettings = (): AccountSettings => ({
  subscriptionFailureStatus: 'canceled',
  acceptedCurrencies: null,
  acceptedBrands: null,
  creditsAllowed: false,
  checkoutOrigins: [],
});

/** Recorded settings with the defaults of settings added since. */
export const withDefaultSettings = (recorded: Partial<AccountSettings>): AccountSettings => ({
  ...defaultAccountSettings(),
  ...recorded,
});

export type AccountCreated = DomainEvent<
  'AccountCreated',
  { accountId: string; name: string; keys: ApiKeyRecord[]; settings: AccountSettings }
>;

/** Settings changed by an operator (`accounts settings`); carries the whole new settings. */
export type AccountSettingsChanged = DomainEvent<
  'AccountSettingsChanged',
  { accountId: string; settings: AccountSettings }
>;

/**
 * An operator put `partnerId` on the account's partner list (`accounts partners add`): the account
 * may use the partner's cross-sale offers that are visible to it. Directed: nothing changes for
 * the partner.
 */
export type AccountPartnerAdded = DomainEvent<'AccountPartnerAdded', { accountId: string; partnerId: string }>;

/** An operator took `partnerId` off the account's partner list (`accounts partners remove`). */
export type AccountPartnerRemoved = DomainEvent<'AccountPartnerRemoved', { accountId: string; partnerId: string }>;

/** The upstream processor APIs live mode can send an account's payments to. */
export type ProcessorKind = 'shift4' | 'stripe';

/**
 * One upstream processor of an account, as configured by an operator (`accounts processors add`).
 * The secret key itself is in the vault: events hold only its reference and last four characters.
 */
export interface AccountProcessor {
  processorId: string;
  kind: ProcessorKind;
  /** Base URL of the processor's API. */
  url: string;
  secretKeyRef: string;
  /** Last four characters of the secret key, to tell keys apart in listings. */
  secretKeyLast4: string;
  /** Currencies this processor takes (upper-case ISO 4217 codes); null: every currency. */
  currencies: string[] | null;
  /** Card brands this processor takes; null: every brand. */
  brands: CardBrand[] | null;
  /** How long a request may take before its outcome counts as unknown. */
  timeoutMs: number;
  /**
   * How long the processor answers a repeated idempotency key with its first answer (absent in
   * earlier events: `DEFAULT_IDEMPOTENCY_WINDOW_MS`). Until it is over, a payment found at none of
   * the processors may still arrive, so its intent stays open.
   */
  idempotencyWindowMs?: number;
  /**
   * Vault reference of the signing secret of this service's endpoint at the processor, where the
   * processor signs its notifications (Stripe); absent when none was given.
   */
  webhookSecretRef?: string;
  webhookSecretLast4?: string;
}

/** How long Shift4 and Stripe keep an idempotency key: 24 hours. */
export const DEFAULT_IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The processor's idempotency window as configured, or the default. */
export const processorIdempotencyWindowMs = (processor: AccountProcessor): number =>
  processor.idempotencyWindowMs ?? DEFAULT_IDEMPOTENCY_WINDOW_MS;

/** An operator added a processor (`accounts processors add`): it is tried after the ones before it. */
export type AccountProcessorAdded = DomainEvent<
  'AccountProcessorAdded',
  { accountId: string; processor: AccountProcessor }
>;

/** An operator removed a processor (`accounts processors remove`): no new payment is sent to it. */
export type AccountProcessorRemoved = DomainEvent<
  'AccountProcessorRemoved',
  { accountId: string; processorId: string }
>;

/** An operator put the account's processors in a new order of preference (`accounts processors order`). */
export type AccountProcessorsReordered = DomainEvent<
  'AccountProcessorsReordered',
  { accountId: string; processorIds: string[] }
>;

export type AccountEvent =
  | AccountCreated
  | AccountSettingsChanged
  | AccountPartnerAdded
  | AccountPartnerRemoved
  | AccountProcessorAdded
  | AccountProcessorRemoved
  | AccountProcessorsReordered;

export const accountEventTypes = everyType<AccountEvent>()([
  'AccountCreated',
  'AccountSettingsChanged',
  'AccountPartnerAdded',
  'AccountPartnerRemoved',
  'AccountProcessorAdded',
  'AccountProcessorRemoved',
  'AccountProcessorsReordered',
]);
