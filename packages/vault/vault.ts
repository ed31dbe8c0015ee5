import { createCipheriv, createDecipheriv, createHmac, randomFillSync } from 'node:crypto';
import { newId } from '../ids/object-id.ts';
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

/** AES-GCM's 96-bit nonce: drawn at random for every entry. */
const IV_BYTES = 12;
/**
 * IVs are drawn from the system generator a few kilobytes at a time (as object ids are): one draw
 * per card number costs more than the encryption. Each IV is handed out once.
 */
const IV_POOL_BYTES = IV_BYTES * 512;
const ivPool = Buffer.alloc(IV_POOL_BYTES);
let ivPoolOffset = IV_POOL_BYTES;

/** 12 random bytes, valid until the next call (the cipher copies its IV). */
function randomIv(): Buffer {
  if (ivPoolOffset === IV_POOL_BYTES) {
    randomFillSync(ivPool);
    ivPoolOffset = 0;
  }
  const iv = ivPool.subarray(ivPoolOffset, ivPoolOffset + IV_BYTES);
  ivPoolOffset += IV_BYTES;
  return iv;
}

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
    const iv = randomIv();
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(`${ref}:${kind}`));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    await this.entries.put({
      id: ref,
      created: Math.floor(Date.now() / 1000),
      kind,
      iv: iv.toString('base64'),
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
