import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';
import { newId } from '../ids/object-id.ts';
import { takeRandomBytes } from '../ids/random-pool.ts';
import type { Document } from '../readstore/document-store.ts';

export interface VaultEntry extends Document {
  /** What the secret is (e.g. `card_number`, `secret_key`): bound into the ciphertext. */
  kind: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

/**
 * Where the vault keeps its entries: a state-store collection, or in the embedded profile a table
 * of the events file whose writes commit with the next append (`event-file-vault-entries.ts`).
 */
export interface VaultEntries {
  get(ref: string): Promise<VaultEntry | null>;
  put(entry: VaultEntry): Promise<void>;
  delete(ref: string): Promise<unknown>;
}

/** AES-GCM's 96-bit nonce: drawn at random for every entry (from the pool object ids are drawn from). */
const IV_BYTES = 12;

/**
 * Secrets encrypted at rest (AES-256-GCM; `docs/architecture.md`, "Card data and secrets"): card
 * numbers and API secret keys. Events and read models only ever hold the reference this returns. Erasing an entry makes the
 * secret unrecoverable while the event log stays immutable.
 */
export class Vault {
  constructor(
    private readonly entries: VaultEntries,
    private readonly key: Buffer,
  ) {
    if (key.length !== 32) throw new Error('The vault key must be 32 bytes');
  }

  /** A separate key for data kept encrypted outside the vault (e.g. replayable answers). */
  derivedKey(purpose: string): Buffer {
    return createHmac('sha256', this.key).update(`derived:${purpose}`).digest();
  }

  async store(kind: string, secret: string): Promise<string> {
    const ref = newId('vault');
    const ivBytes = takeRandomBytes(IV_BYTES);
    // The cipher copies its IV, and the text is made now: the pool's bytes are only lent.
    const cipher = createCipheriv('aes-256-gcm', this.key, ivBytes);
    const iv = ivBytes.toString('base64');
    cipher.setAAD(Buffer.from(`${ref}:${kind}`));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    await this.entries.put({
      id: ref,
      created: Math.floor(Date.now() / 1000),
      kind,
      iv,
      tag: cipher.getAuthTag().toString('base64'),
      ciphertext: ciphertext.toString('base64'),
    });
    return ref;
  }

  /** The secret, or null when the entry was erased (or never existed). */
  async reveal(ref: string): Promise<string | null> {
    const entry = await this.entries.get(ref);
    if (!entry) return null;
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(entry.iv, 'base64'));
    decipher.setAAD(Buffer.from(`${ref}:${entry.kind}`));
    decipher.setAuthTag(Buffer.from(entry.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(entry.ciphertext, 'base64')), decipher.final()]).toString('utf8');
  }

  async erase(ref: string): Promise<void> {
    await this.entries.delete(ref);
  }
}
