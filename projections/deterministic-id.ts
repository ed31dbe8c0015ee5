import { hash } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const LENGTH = 24;
const LIMBS = 8;

/**
 * An id derived from a seed: a projection rebuilt from the same events gives the same ids
 * (so a public event keeps its id across rebuilds). The SHA-256 of the seed, read as one
 * big-endian number, written in base 62 from its lowest digit, 24 digits.
 */
export function deterministicId(prefix: string, seed: string): string {
  const digest = hash('sha256', seed, 'buffer');
  // The number as 32-bit limbs, most significant first: dividing limb by limb stays within
  // double precision (remainder * 2^32 + limb < 2^38), which is cheaper than BigInt.
  const limbs = new Array<number>(LIMBS);
  for (let i = 0; i < LIMBS; i++) limbs[i] = digest.readUInt32BE(i * 4);
  let out = prefix + '_';
  for (let digit = 0; digit < LENGTH; digit++) {
    let remainder = 0;
    for (let i = 0; i < LIMBS; i++) {
      const value = remainder * 4294967296 + limbs[i]!;
      limbs[i] = Math.floor(value / 62);
      remainder = value - limbs[i]! * 62;
    }
    out += ALPHABET[remainder];
  }
  return out;
}
