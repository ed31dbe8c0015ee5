import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The files in DATA_DIR that hold the generated keys of the embedded profile: the vault's (card
 * numbers, secret keys) and the card fingerprints'.
 */
export const KEY_FILES = { vault: 'vault.key', fingerprint: 'fingerprint.key' } as const;

/**
 * A 32-byte key: from configuration (64 hex characters), or, in the embedded profile only, a key
 * generated on first start and kept beside the data (file mode 0600). Losing it makes stored card
 * numbers and secret keys unreadable, so back it up with the data directory.
 */
export function loadOrCreateKey(configured: Buffer | undefined, dataDir: string, fileName: string): Buffer {
  if (configured) return configured;
  const path = join(dataDir, fileName);
  if (existsSync(path)) return Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  writeFileSync(path, key.toString('hex'), { mode: 0o600, flag: 'wx' });
  return key;
}
