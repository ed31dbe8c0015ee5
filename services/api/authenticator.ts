import { hashApiKey } from '../../packages/commands/account-commands.ts';
import type { AuthContext } from '../../packages/http/route.ts';
import type { ReadModels } from '../../packages/projection/read-models.ts';
import { apiKeysCollection } from '../../projections/accounts-projection.ts';

const CACHE_LIMIT = 10_000;

/**
 * Finds the account and mode an API key belongs to, by the key's SHA-256 (keys are never stored
 * in plain text). Known keys are cached: keys do not change once issued.
 */
export function apiKeyAuthenticator(readModels: ReadModels): (apiKey: string) => Promise<AuthContext | null> {
  const cache = new Map<string, AuthContext>();
  return async (apiKey) => {
    const hash = hashApiKey(apiKey);
    const cached = cache.get(hash);
    if (cached) return cached;
    const key = await readModels.collection(apiKeysCollection).get(hash);
    if (!key) return null;
    const auth: AuthContext = { accountId: key.accountId, mode: key.mode, keyId: key.keyId, keyKind: key.kind };
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(hash, auth);
    return auth;
  };
}
