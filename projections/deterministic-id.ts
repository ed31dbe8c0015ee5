import { hash } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ALPHABET_CODES = Array.from(ALPHABET, (character) => character.charCodeAt(0));
const LENGTH = 24;
const LIMBS = 8;
/** Three base-62 digits per long division: remainder * 2^32 + limb stays below 2^50, exact in a double. */
const DIGITS_PER_DIVISION = 3;
const DIVISOR = 62 ** DIGITS_PER_DIVISION;

/** Scratch space of one derivation (module state: no allocation per id). */
const limbs = new Float64Array(LIMBS);
const digitCodes = new Array<number>(LENGTH).fill(0);

/**
 * An id derived from a seed: a projection rebuilt from the same events gives the same ids
 * (so a public event keeps its id across rebuilds). The SHA-256 of the seed, read as one
 * big-endian number, written in base 62 from its lowest digit, 24 digits.
 */
export function deterministicId(prefix: string, seed: string): string {
  // The digest as hex text: a Buffer per id would cost more than the hash itself.
  const hex = hash('sha256', seed, 'hex');
  // The number as 32-bit limbs, most significant first: dividing limb by limb stays within
  // double precision, which is cheaper than BigInt.
  for (let limb = 0; limb < LIMBS; limb++) {
    let value = 0;
    for (let i = limb * 8; i < limb * 8 + 8; i++) {
      const code = hex.charCodeAt(i);
      value = value * 16 + (code < 58 ? code - 48 : code - 87);
    }
    limbs[limb] = value;
  }
  let top = 0;
  for (let digit = 0; digit < LENGTH; digit += DIGITS_PER_DIVISION) {
    // Limbs that have become zero no longer change the quotient.
    while (top < LIMBS && limbs[top] === 0) top++;
    let remainder = 0;
    for (let i = top; i < LIMBS; i++) {
      const value = remainder * 4294967296 + limbs[i]!;
      const quotient = Math.floor(value / DIVISOR);
      limbs[i] = quotient;
      remainder = value - quotient * DIVISOR;
    }
    for (let i = digit; i < digit + DIGITS_PER_DIVISION; i++) {
      const low = remainder % 62;
      digitCodes[i] = ALPHABET_CODES[low]!;
      remainder = (remainder - low) / 62;
    }
  }
  return `${prefix}_${String.fromCharCode(...digitCodes)}`;
}
