import { hash } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ALPHABET_CODES = Array.from(ALPHABET, (character) => character.charCodeAt(0));
const LENGTH = 24;
const LIMBS = 8;
/** Three base-62 digits per long division: remainder * 2^32 + limb stays below 2^50, exact in a double. */
const DIGITS_PER_DIVISION = 3;
const DIVISOR = 62 ** DIGITS_PER_DIVISION;
/** Multiplying by it is cheaper than dividing; the quotient it gives is off by at most one, then corrected. */
const RECIPROCAL = 1 / DIVISOR;

/** Scratch space of one derivation (module state: no allocation per id). */
const limbs = new Float64Array(LIMBS);
const digitCodes = new Array<number>(LENGTH).fill(0);

/**
 * An id derived from a seed: a projection rebuilt from the same events gives the same ids
 * (so a public event keeps its id across rebuilds). The SHA-256 of the seed, read as one
 * big-endian number, written in base 62 from its lowest digit, 24 digits.
 */
export function deterministicId(prefix: string, seed: string): string {
  // The digest as a binary string, a byte per character: a Buffer per id would cost more than the
  // hash itself, and hex text twice the characters to decode (`docs/benchmarks.md`, "Rebuilds").
  const digest = hash('sha256', seed, 'binary');
  // The number as 32-bit limbs, most significant first: dividing limb by limb stays within
  // double precision, which is cheaper than BigInt.
  for (let limb = 0; limb < LIMBS; limb++) {
    const byte = limb * 4;
    limbs[limb] =
      ((digest.charCodeAt(byte) << 24) >>> 0) +
      (digest.charCodeAt(byte + 1) << 16) +
      (digest.charCodeAt(byte + 2) << 8) +
      digest.charCodeAt(byte + 3);
  }
  let top = 0;
  for (let digit = 0; digit < LENGTH; digit += DIGITS_PER_DIVISION) {
    // Limbs that have become zero no longer change the quotient.
    while (top < LIMBS && limbs[top] === 0) top++;
    let remainder = 0;
    for (let i = top; i < LIMBS; i++) {
      const value = remainder * 4294967296 + limbs[i]!;
      let quotient = Math.floor(value * RECIPROCAL);
      let rest = value - quotient * DIVISOR;
      if (rest < 0) {
        quotient--;
        rest += DIVISOR;
      } else if (rest >= DIVISOR) {
        quotient++;
        rest -= DIVISOR;
      }
      limbs[i] = quotient;
      remainder = rest;
    }
    // The remainder's three digits, lowest first.
    const first = remainder % 62;
    remainder = (remainder - first) / 62;
    const second = remainder % 62;
    digitCodes[digit] = ALPHABET_CODES[first]!;
    digitCodes[digit + 1] = ALPHABET_CODES[second]!;
    digitCodes[digit + 2] = ALPHABET_CODES[(remainder - second) / 62]!;
  }
  return `${prefix}_${String.fromCharCode(...digitCodes)}`;
}
