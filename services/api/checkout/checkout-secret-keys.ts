import type { ApiKeyRecord } from '../../../packages/domain/account/account-events.ts';
import { accountStream } from '../../../packages/domain/account/account-events.ts';
import type { Mode } from '../../../packages/domain/mode.ts';
import type { EventLog } from '../../../packages/eventstore/event-log.ts';
import type { Vault } from '../../../packages/vault/vault.ts';

const CACHE_LIMIT = 1_000;

/**
 * The secret key of an account's mode, which signs its checkout requests. Authentication keeps
 * only hashes of keys; the secret key itself is in the vault, referenced by the account's
 * `AccountCreated` event. Keys never change once an account is opened, so they are kept in
 * memory once revealed.
 */
export function checkoutSecretKeys(
  events: EventLog,
  vault: Vault,
): (accountId: string, mode: Mode) => Promise<string | null> {
  const revealed = new Map<string, string>();
  return async (accountId, mode) => {
    const cacheKey = `${accountId}:${mode}`;
    const known = revealed.get(cacheKey);
    if (known) return known;
    const [created] = await events.readStream(accountStream(accountId), { maxCount: 1 });
    if (created?.type !== 'AccountCreated') return null;
    const keys = (created.data as { keys: ApiKeyRecord[] }).keys;
    const record = keys.find((key) => key.kind === 'secret' && key.mode === mode && key.vaultRef !== null);
    const secretKey = record?.vaultRef ? await vault.reveal(record.vaultRef) : null;
    if (secretKey === null) return null;
    if (revealed.size >= CACHE_LIMIT) revealed.delete(revealed.keys().next().value!);
    revealed.set(cacheKey, secretKey);
    return secretKey;
  };
}
