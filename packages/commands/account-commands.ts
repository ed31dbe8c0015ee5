import { hash } from 'node:crypto';
import { accountDecider } from '../domain/account/account-decider.ts';
import { accountResource, accountStream, type ApiKeyRecord, type KeyKind } from '../domain/account/account-events.ts';
import type { Mode } from '../domain/mode.ts';
import { newId, randomBase62 } from '../ids/object-id.ts';
import type { Vault } from '../vault/vault.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CommandContext } from './command-context.ts';

/** The four keys of a new account, shown once to whoever created it. */
export interface AccountKeys {
  id: string;
  testSecretKey: string;
  testPublicKey: string;
  liveSecretKey: string;
  livePublicKey: string;
}

// One-shot hashing: authentication hashes the key of every request.
export const hashApiKey = (key: string): string => hash('sha256', key, 'hex');

const keyPrefix = (kind: KeyKind, mode: Mode): string => `${kind === 'secret' ? 'sk' : 'pk'}_${mode}_`;

/**
 * Opens an account with its test and live key pairs. Secret keys go into the vault (they verify
 * checkout signatures later); the event records only their hashes and vault references.
 */
export async function createAccount(
  deps: { aggregates: AggregateStore; vault: Vault },
  name: string,
  context: Omit<CommandContext, 'accountId' | 'mode'>,
): Promise<AccountKeys & { position: number | null }> {
  const accountId = newId(accountResource);
  const plain = new Map<string, string>();
  const keys: ApiKeyRecord[] = [];
  for (const mode of ['test', 'live'] as const) {
    for (const kind of ['secret', 'public'] as const) {
      const key = `${keyPrefix(kind, mode)}${randomBase62(32)}`;
      plain.set(`${kind}:${mode}`, key);
      keys.push({
        keyId: newId('key'),
        kind,
        mode,
        keyHash: hashApiKey(key),
        last4: key.slice(-4),
        vaultRef: kind === 'secret' ? await deps.vault.store('secret_key', key) : null,
      });
    }
  }
  // Account events are the account's own: scoped to it, in test mode by convention.
  const result = await deps.aggregates.execute(
    accountDecider,
    accountStream(accountId),
    { type: 'CreateAccount', accountId, name, keys },
    { ...context, accountId, mode: 'test' },
  );
  return {
    id: accountId,
    testSecretKey: plain.get('secret:test')!,
    testPublicKey: plain.get('public:test')!,
    liveSecretKey: plain.get('secret:live')!,
    livePublicKey: plain.get('public:live')!,
    position: result.position,
  };
}
