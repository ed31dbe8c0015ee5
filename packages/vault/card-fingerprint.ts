import { createHmac } from 'node:crypto';

/**
 * Fingerprint of a card number: a keyed hash (HMAC-SHA256 with FINGERPRINT_KEY), so equal numbers
 * give equal fingerprints across customers, charges and tokens, while the number cannot be
 * recovered or guessed from it without the key.
 */
export class CardFingerprinter {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The fingerprint key must be 32 bytes');
  }

  /** A separate key for another keyed hash, so that one hash never reveals the other. */
  derivedKey(purpose: string): Buffer {
    return createHmac('sha256', this.key).update(`derived:${purpose}`).digest();
  }

  fingerprint(cardNumber: string): string {
    return createHmac('sha256', this.key).update(cardNumber).digest('base64url').slice(0, 24);
  }
}
