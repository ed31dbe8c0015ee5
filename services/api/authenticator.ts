import { hashApiKey } from '../../packages/commands/account-commands.ts';
import type { AuthContext } from '../../packages/http/route.ts';
import type { ReadModels } from '../../packages/projection-runtime/read-models.ts';
import { accountsProjection, apiKeysCollection } from '../../projections/accounts-projection.ts';

const CACHE_LIMIT = 10_000;

/**
 * Finds the account and mode an API key belongs to, by the key's SHA-256 (keys are never stored
 * in plain text). Recognised keys are cached, so that a request costs one hash and one map lookup,
 * for as long as the accounts read model (accounts and their keys) stays where it was: whenever
 * its projection moves on, the cache starts afresh, so a key changed or withdrawn there is
 * refused from the first request that follows.
 */
export function apiKeyAuthenticator(readModels: ReadModels): (apiKey: string) => Promise<AuthContext | null> {
  const cache = new Map<string, AuthContext>();
  let cachedAt = -1;
  return async (apiKey) => {
    const position = readModels.projectedPosition(accountsProjection.name);
    if (position !== cachedAt) {
      cache.clear();
      cachedAt = position;
    }
    const hash = hashApiKey(apiKey);
    const cached = cache.get(hash);
    if (cached) return cached;
    const key = await readModels.collection(apiKeysCollection).get(hash);
    if (!key) return null;
    const auth: AuthContext = { accountId: key.accountId, mode: key.mode, keyId: key.keyId, keyKind: key.kind };
    // Read while the accounts projection moved on: not kept (the next request reads it again).
    if (readModels.projectedPosition(accountsProjection.name) !== cachedAt) return auth;
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(hash, auth);
    return auth;
  };
}
