import { accountDecider, type AccountCommand } from '../domain/account/account-decider.ts';
import {
  accountStream,
  DEFAULT_IDEMPOTENCY_WINDOW_MS,
  processorIdempotencyWindowMs,
  type AccountProcessor,
  type ProcessorKind,
} from '../domain/account/account-events.ts';
import type { CardBrand } from '../domain/card/card-snapshot.ts';
import { InvalidRequestError, NotFoundError } from '../domain/errors.ts';
import { newId } from '../ids/object-id.ts';
import type { Vault } from '../vault/vault.ts';
import type { AggregateStore } from './aggregate-store.ts';
import { accountTenant } from './account-settings.ts';
import type { CommandContext } from './command-context.ts';

/** The vault kind of a processor's secret key: bound into its ciphertext. */
export const PROCESSOR_SECRET_KEY = 'processor_secret_key';

/** The vault kind of the signing secret of a processor's notifications. */
export const PROCESSOR_WEBHOOK_SECRET = 'processor_webhook_secret';

/** How long a processor request may take when the operator names no timeout. */
export const DEFAULT_PROCESSOR_TIMEOUT_MS = 30_000;

export interface NewProcessor {
  kind: ProcessorKind;
  url: string;
  secretKey: string;
  currencies: string[] | null;
  brands: CardBrand[] | null;
  timeoutMs?: number;
  /** How long the processor keeps an idempotency key (default 24 h). */
  idempotencyWindowMs?: number;
  /** The signing secret of the processor's notifications to this service (Stripe's `whsec_…`). */
  webhookSecret?: string;
}

/** A processor as operators see it: the secret key masked. */
export interface ListedProcessor {
  processorId: string;
  kind: ProcessorKind;
  url: string;
  secretKey: string;
  currencies: string[] | null;
  brands: CardBrand[] | null;
  timeoutMs: number;
  idempotencyWindowMs: number;
  /** Masked like the key; only when a signing secret was given. */
  webhookSecret?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A processor's base URL: HTTPS, or plain HTTP to this machine only (a processor's test peer, a
 * local TLS-terminating proxy). Card numbers never cross a network in clear.
 */
export function processorUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidRequestError(`Invalid parameter: url must be an absolute URL (${text} is not)`, 'url');
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw new InvalidRequestError('Invalid parameter: url must be https:// (http:// only to localhost)', 'url');
  if (url.username || url.password || url.search || url.hash)
    throw new InvalidRequestError('Invalid parameter: url must hold no credentials, query or fragment', 'url');
  return url.href.replace(/\/+$/, '');
}

/**
 * Adds a processor to the account, last in its order of preference (operators' CLI,
 * `docs/operations.md`). The secret key goes into the vault before the event that refers to it;
 * when the event cannot be recorded, the entry is erased again.
 */
export async function addAccountProcessor(
  deps: { aggregates: AggregateStore; vault: Vault },
  accountId: string,
  input: NewProcessor,
  context: Omit<CommandContext, 'accountId' | 'mode'>,
): Promise<ListedProcessor[]> {
  const url = processorUrl(input.url);
  const secretKey = input.secretKey.trim();
  if (secretKey.length < 8) throw new InvalidRequestError('Invalid parameter: secret key is too short', 'secretKey');
  const timeoutMs = input.timeoutMs ?? DEFAULT_PROCESSOR_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 120_000)
    throw new InvalidRequestError('Invalid parameter: timeout must be 100–120000 ms', 'timeoutMs');
  const idempotencyWindowMs = input.idempotencyWindowMs ?? DEFAULT_IDEMPOTENCY_WINDOW_MS;
  if (!Number.isInteger(idempotencyWindowMs) || idempotencyWindowMs < 1000 || idempotencyWindowMs > 31 * DAY_MS)
    throw new InvalidRequestError(
      'Invalid parameter: idempotency window must be 1000 ms to 31 days',
      'idempotencyWindowMs',
    );
  const webhookSecret = input.webhookSecret?.trim();
  if (webhookSecret !== undefined && webhookSecret.length < 8)
    throw new InvalidRequestError('Invalid parameter: webhook secret is too short', 'webhookSecret');
  const secretKeyRef = await deps.vault.store(PROCESSOR_SECRET_KEY, secretKey);
  const webhookSecretRef = webhookSecret && (await deps.vault.store(PROCESSOR_WEBHOOK_SECRET, webhookSecret));
  const processor: AccountProcessor = {
    processorId: newId('proc'),
    kind: input.kind,
    url,
    secretKeyRef,
    secretKeyLast4: secretKey.slice(-4),
    currencies: input.currencies,
    brands: input.brands,
    timeoutMs,
    idempotencyWindowMs,
    ...(webhookSecret && webhookSecretRef ? { webhookSecretRef, webhookSecretLast4: webhookSecret.slice(-4) } : {}),
  };
  try {
    return await changeProcessors(deps.aggregates, accountId, { type: 'AddProcessor', accountId, processor }, context);
  } catch (error) {
    await deps.vault.erase(secretKeyRef);
    if (webhookSecretRef) await deps.vault.erase(webhookSecretRef);
    throw error;
  }
}

/**
 * Removes a processor: no new payment goes to it. Its secret key stays in the vault, so payments
 * it may hold whose outcome is still unknown can be looked up there.
 */
export async function removeAccountProcessor(
  aggregates: AggregateStore,
  accountId: string,
  processorId: string,
  context: Omit<CommandContext, 'accountId' | 'mode'>,
): Promise<ListedProcessor[]> {
  return changeProcessors(aggregates, accountId, { type: 'RemoveProcessor', accountId, processorId }, context);
}

/** Puts the account's processors in a new order of preference (every one named once). */
export async function reorderAccountProcessors(
  aggregates: AggregateStore,
  accountId: string,
  processorIds: string[],
  context: Omit<CommandContext, 'accountId' | 'mode'>,
): Promise<ListedProcessor[]> {
  return changeProcessors(aggregates, accountId, { type: 'ReorderProcessors', accountId, processorIds }, context);
}

/**
 * The account's processors, most preferred first (read from its stream, not a read model: the
 * state is kept and only newer events are read, as live charges ask every time).
 */
export async function accountProcessors(aggregates: AggregateStore, accountId: string): Promise<AccountProcessor[]> {
  const { state } = await aggregates.loadKept(accountDecider, accountStream(accountId), accountTenant(accountId));
  if (state.status === 'none') throw new NotFoundError('Account', accountId);
  return state.processors;
}

export async function listAccountProcessors(aggregates: AggregateStore, accountId: string): Promise<ListedProcessor[]> {
  return (await accountProcessors(aggregates, accountId)).map(listed);
}

async function changeProcessors(
  aggregates: AggregateStore,
  accountId: string,
  command: AccountCommand,
  context: Omit<CommandContext, 'accountId' | 'mode'>,
): Promise<ListedProcessor[]> {
  const result = await aggregates.execute(accountDecider, accountStream(accountId), command, {
    ...context,
    ...accountTenant(accountId),
  });
  if (result.state.status === 'none') throw new NotFoundError('Account', accountId);
  return result.state.processors.map(listed);
}

/** Only the key's last four characters: enough to tell two keys apart. */
export function maskedKey(processor: Pick<AccountProcessor, 'secretKeyLast4'>): string {
  return `…${processor.secretKeyLast4}`;
}

function listed(processor: AccountProcessor): ListedProcessor {
  const {
    secretKeyRef: _ref,
    secretKeyLast4: _last4,
    webhookSecretRef: _webhookRef,
    webhookSecretLast4,
    ...shown
  } = processor;
  return {
    ...shown,
    idempotencyWindowMs: processorIdempotencyWindowMs(processor),
    secretKey: maskedKey(processor),
    ...(webhookSecretLast4 ? { webhookSecret: maskedKey({ secretKeyLast4: webhookSecretLast4 }) } : {}),
  };
}
