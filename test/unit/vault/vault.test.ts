import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Vault, type VaultEntries, type VaultEntry } from '../../../packages/vault/vault.ts';

/** Entries kept in a map: the vault's own work (encryption, IVs) is what is tested. */
function entriesInMemory(): VaultEntries & { all: () => VaultEntry[] } {
  const entries = new Map<string, VaultEntry>();
  return {
    get: async (ref) => entries.get(ref) ?? null,
    put: async (entry) => void entries.set(entry.id, entry),
    delete: async (ref) => entries.delete(ref),
    all: () => [...entries.values()],
  };
}

describe('vault: secrets encrypted at rest', () => {
  it('gives every entry an IV of its own, many entries in a row, and reveals each secret', async () => {
    const entries = entriesInMemory();
    const vault = new Vault(entries, randomBytes(32));
    const secrets = Array.from({ length: 1500 }, (_, index) => `4242${String(index).padStart(12, '0')}`);

    const refs = [];
    for (const secret of secrets) refs.push(await vault.store('card_number', secret));

    const ivs = entries.all().map((entry) => entry.iv);
    expect(ivs.every((iv) => Buffer.from(iv, 'base64').length === 12)).to.equal(true);
    expect(new Set(ivs).size).to.equal(secrets.length);
    for (const [index, ref] of refs.entries()) expect(await vault.reveal(ref)).to.equal(secrets[index]);
    expect(entries.all().some((entry) => entry.ciphertext.includes('4242'))).to.equal(false);
  });
});
