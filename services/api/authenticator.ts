import { hashApiKey } from '../../packages/commands/account-commands.ts';
import { KeyNotKnownYet } from '../../packages/http/authenticate.ts';
import type { AuthContext } from '../../packages/http/route.ts';
import type { ReadModels } from '../../packages/projection-runtime/read-models.ts';
import { accountsProjection, apiKeysCollection } from '../../projections/accounts-projection.ts';

const CACHE_LIMIT = 10_000;

export interface UnknownKeyCatchUp {
  /** Position of the last event in the log now. */
  logHead(): Promise<number>;
  /** How long an unknown key may wait for the accounts read model (READ_YOUR_WRITES_TIMEOUT_MS). */
  timeoutMs: number;
}

/**
 * Finds the account and mode an API key belongs to, by the key's SHA-256 (keys are never stored
 * in plain text). Recognised keys are cached, so that a request costs one hash and one map lookup,
 * for as long as the accounts read model (accounts and their keys) stays where it was: whenever
 * its projection moves on, the cache starts afresh, so a key changed or withdrawn there is
 * refused from the first request that follows.
 *
 * A key the read model does not hold may have been issued a moment ago by another process (the
 * CLI's `accounts create`) whose events this process's accounts read model has not applied yet:
 * before refusing it, the authenticator waits until that read model has applied the log as it is
 * now (at most `timeoutMs`) and looks once more. A key unknown to a read model already at the
 * log's head is refused at once; one the read model could not answer for within the wait (it is
 * catching up: a start, a projector far behind) is neither recognised nor refused:
 * `KeyNotKnownYet` (503, retry).
 */
export function apiKeyAuthenticator(
  readModels: ReadModels,
  catchUp?: UnknownKeyCatchUp,
): (apiKey: string) => AuthContext | null | Promise<AuthContext | null> {
  const cache = new Map<string, AuthContext>();
  let cachedAt = -1;
  const lookUp = (hash: string) => readModels.collection(apiKeysCollection).get(hash);

  /** A key not in the cache: read from the accounts read model, and kept when it is there. */
  const recognise = async (hash: string): Promise<AuthContext | null> => {
    let key = await lookUp(hash);
    if (!key && catchUp) {
      const head = await catchUp.logHead();
      if (readModels.projectedPosition(accountsProjection.name) >= head) return null;
      if (!(await readModels.waitForProjection(accountsProjection.name, head, catchUp.timeoutMs)))
        throw new KeyNotKnownYet();
      key = await lookUp(hash);
    }
    if (!key) return null;
    const auth: AuthContext = { accountId: key.accountId, mode: key.mode, keyId: key.keyId, keyKind: key.kind };
    // Read while the accounts projection moved on: not kept (the next request reads it again).
    if (readModels.projectedPosition(accountsProjection.name) !== cachedAt) return auth;
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(hash, auth);
    return auth;
  };

  // Every request asks: a key in the cache is answered at once, without a promise.
  return (apiKey) => {
    const position = readModels.projectedPosition(accountsProjection.name);
    if (position !== cachedAt) {
      cache.clear();
      cachedAt = position;
    }
    const hash = hashApiKey(apiKey);
    return cache.get(hash) ?? recognise(hash);
  };
}
