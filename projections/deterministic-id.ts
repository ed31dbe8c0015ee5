import { createHash } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * An id derived from a seed: a projection rebuilt from the same events gives the same ids
 * (so a public event keeps its id across rebuilds).
 */
export function deterministicId(prefix: string, seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let value = BigInt(`0x${digest.toString('hex')}`);
  let out = '';
  while (out.length < 24) {
    out += ALPHABET[Number(value % 62n)];
    value /= 62n;
  }
  return `${prefix}_${out}`;
}
