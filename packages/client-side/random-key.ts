/**
 * The sixteen letters a random key is written in, four bits each: no digits, because the service
 * refuses any header or parameter holding a run of digits that reads as a card number, and random
 * hexadecimal of 32 characters holds one in about one key of 350 (a payer then saw checkout
 * fail for no reason of theirs).
 */
const KEY_LETTERS = 'abcdefghijklmnop';

/** A random key of `bytes` random bytes, two letters each (`KEY_LETTERS`). */
export function randomKey(bytes = 12): string {
  return Array.from(
    crypto.getRandomValues(new Uint8Array(bytes)),
    (byte) => KEY_LETTERS[byte >> 4]! + KEY_LETTERS[byte & 15]!,
  ).join('');
}
