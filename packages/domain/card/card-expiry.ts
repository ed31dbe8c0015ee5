/**
 * A card's expiry as the client sent it and as the network reads it. Events keep the text the
 * client sent (`"05"`, `"5"`, `"30"`, `"2030"`); the network and the API's card objects use
 * numbers, with two-digit years meaning 20YY.
 */
export interface CardExpiry {
  month: number;
  year: number;
}

/** A month of one or two digits; null for anything else (range is checked by the network). */
export function parseExpiryMonth(value: string | number): number | null {
  const text = String(value).trim();
  return /^\d{1,2}$/.test(text) ? Number(text) : null;
}

/** Two-digit years mean 20YY; anything not made of two or four digits is no year at all. */
export function normalizeExpiryYear(value: string | number): number | null {
  const text = String(value).trim();
  if (!/^\d{2}$|^\d{4}$/.test(text)) return null;
  const year = Number(text);
  return text.length === 2 ? 2000 + year : year;
}

/**
 * The numbers of an expiry already accepted on intake. Throws on text that intake would have
 * refused: a recorded card with such an expiry is a defect, not a client error.
 */
export function cardExpiry(card: { expMonth: string; expYear: string }): CardExpiry {
  const month = parseExpiryMonth(card.expMonth);
  const year = normalizeExpiryYear(card.expYear);
  if (month === null || year === null) {
    throw new RangeError(`Recorded card expiry is not a valid month and year: ${card.expMonth}/${card.expYear}`);
  }
  return { month, year };
}
