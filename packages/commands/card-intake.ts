import {
  cardAddress,
  type CardholderDetails,
  type CardSnapshot,
  type FraudCheckData,
} from '../domain/card/card-snapshot.ts';
import { normalizeExpiryYear, parseExpiryMonth } from '../domain/card/card-expiry.ts';
import { CardError } from '../domain/errors.ts';
import type { CardNetwork } from '../network/card-network.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { CardFingerprinter } from '../vault/card-fingerprint.ts';
import type { Vault } from '../vault/vault.ts';
import { withIpCountry } from '../fraud-check/payer-data.ts';

/** Card details as a client sends them (spec: card create); numbers may arrive as text. */
export interface CardDetailsInput extends Partial<CardholderDetails> {
  number: string;
  expMonth: string | number;
  expYear: string | number;
  cvc?: string | number;
  fraudCheckData?: FraudCheckData | null;
}

/** The expiry as sent (trimmed text) and its numbers; 402 card errors when it is no month or year. */
function parseExpiry(
  month: string | number,
  year: string | number,
): { asSent: { expMonth: string; expYear: string }; expiry: { expMonth: number; expYear: number } } {
  const expMonth = parseExpiryMonth(month);
  if (expMonth === null || expMonth < 1 || expMonth > 12)
    throw new CardError('invalid_expiry_month', 'The card expiration month is invalid.');
  const expYear = normalizeExpiryYear(year);
  if (expYear === null) throw new CardError('invalid_expiry_year', 'The card expiration year is invalid.');
  return { asSent: { expMonth: String(month).trim(), expYear: String(year).trim() }, expiry: { expMonth, expYear } };
}

/**
 * Turns card details into a card snapshot: validates them as the network would (402 card errors),
 * puts the number into the vault, fingerprints it, reads the BIN, and drops the CVC.
 */
export class CardIntake {
  constructor(
    private readonly network: CardNetwork,
    private readonly vault: Vault,
    private readonly fingerprinter: CardFingerprinter,
  ) {}

  /**
   * With `keepFor` (a card that will be paid with again: a token, a saved card, a charge's card
   * saved to its customer), the live network asks the account's processors to keep the card while
   * its CVC is at hand (`CardNetwork.keepCard`): the snapshot records where they keep it, and the
   * BIN data the first of them gives replaces the table's. Test mode keeps nothing.
   */
  async fromDetails(input: CardDetailsInput, now: Date, keepFor?: Tenant): Promise<CardSnapshot> {
    const { number, asSent, expiry, cvc } = this.validated(input, now);
    const vaultRef = await this.vault.store('card_number', number);
    const kept =
      keepFor && cvc
        ? await this.network.keepCard({
            mode: keepFor.mode,
            accountId: keepFor.accountId,
            reference: vaultRef,
            number,
            ...expiry,
            cvc,
            cardholderName: input.cardholderName ?? null,
          })
        : null;
    const bin = { ...this.network.binInfo(number), ...kept?.card };
    return {
      first6: number.slice(0, 6),
      last4: number.slice(-4),
      fingerprint: this.fingerprinter.fingerprint(number),
      vaultRef,
      brand: bin.brand,
      type: bin.type,
      country: bin.country,
      issuer: bin.issuer,
      ...asSent,
      cardholderName: input.cardholderName ?? null,
      ...cardAddress(input),
      fraudCheckData: input.fraudCheckData ? withIpCountry(input.fraudCheckData) : null,
      ...(kept && kept.processorCards.length > 0 ? { processorCards: kept.processorCards } : {}),
    };
  }

  /**
   * Validates card details as `fromDetails` does (402 card errors), storing nothing: for a request
   * that must refuse everything it refuses before its first write.
   */
  check(input: CardDetailsInput, now: Date): void {
    this.validated(input, now);
  }

  private validated(
    input: CardDetailsInput,
    now: Date,
  ): {
    number: string;
    asSent: { expMonth: string; expYear: string };
    expiry: { expMonth: number; expYear: number };
    cvc: string | undefined;
  } {
    const number = String(input.number).trim();
    const { asSent, expiry } = parseExpiry(input.expMonth, input.expYear);
    const cvc = input.cvc !== undefined ? String(input.cvc).trim() : undefined;
    const entry = { number, ...expiry, ...(cvc !== undefined ? { cvc } : {}) };
    const invalid = this.network.validate(entry, now);
    if (invalid) throw new CardError(invalid.code, invalid.message);
    return { number, asSent, expiry, cvc };
  }

  /**
   * A new expiry for a saved card, checked like a new card's (402 when invalid or past); answers
   * it as sent, the way a new card's is recorded.
   */
  validateExpiry(month: string | number, year: string | number, now: Date): { expMonth: string; expYear: string } {
    const { asSent, expiry } = parseExpiry(month, year);
    // Any valid number of the right shape lets the network judge the dates alone.
    const invalid = this.network.validate({ number: '4242424242424242', ...expiry }, now);
    if (invalid) throw new CardError(invalid.code, invalid.message);
    return asSent;
  }

  /** The card number, revealed from the vault for one network call; never kept. */
  async revealNumber(card: Pick<CardSnapshot, 'vaultRef'>): Promise<string> {
    const number = await this.vault.reveal(card.vaultRef);
    if (number === null) throw new CardError('processing_error', 'The card data is no longer available.');
    return number;
  }

  /**
   * Erases the number of a card that `fromDetails` took in but that no event records (its request
   * failed, or an earlier run of it had recorded another copy): a card number is kept only for a
   * card that exists.
   */
  async discard(card: Pick<CardSnapshot, 'vaultRef'>): Promise<void> {
    await this.vault.erase(card.vaultRef);
  }

  fingerprint(number: string): string {
    return this.fingerprinter.fingerprint(number);
  }
}
