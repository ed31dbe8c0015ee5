import currencyCodes from 'currency-codes';

/**
 * Amounts as payers read and type them, the same on the service's pages and in the browser
 * scripts: minor units by ISO 4217 (`currency-codes`: HUF and ISK have two digits, JPY none,
 * whatever the browser's own tables say), the number written in the page's language, followed
 * by the currency code (`19.99 EUR`, `19,99 EUR`, `150,000.00 HUF`).
 */

/** Digits of the currency's minor unit by ISO 4217: 2 for EUR, 0 for JPY, 3 for KWD. */
export function currencyDigits(currency: string): number {
  return currencyCodes.code(currency)?.digits ?? 2;
}

/** `1999`, `EUR`, `de` → `19,99 EUR`. */
export function formatMoney(amount: number, currency: string, locale = 'en'): string {
  const digits = currencyDigits(currency);
  return `${numberFormat(locale, digits).format(amount / 10 ** digits)} ${currency}`;
}

/**
 * The amount a payer typed, in minor units; null when it is not an amount in this currency. The
 * last point or comma is the decimal separator when at most the currency's digits follow it
 * (`25,5`, `25.50`, `1.234,56`); other points, commas and spaces group thousands (`1,000`, `1 000`).
 */
export function parseMoney(text: string, currency: string): number | null {
  const digits = currencyDigits(currency);
  const compact = text.replace(/[\s\u00a0\u202f']/g, '');
  if (!/^\d[\d.,]*$/.test(compact)) return null;
  const last = Math.max(compact.lastIndexOf('.'), compact.lastIndexOf(','));
  const fraction = last >= 0 ? compact.slice(last + 1) : '';
  const isDecimal = last >= 0 && fraction.length > 0 && fraction.length <= digits;
  const groups = (isDecimal ? compact.slice(0, last) : compact).split(/[.,]/);
  // Thousands come in threes: `10.5` is no amount of yen.
  if (groups.some((group, index) => group === '' || (index > 0 && group.length !== 3))) return null;
  return Number(groups.join('')) * 10 ** digits + Number(isDecimal ? fraction.padEnd(digits, '0') : 0);
}

function numberFormat(locale: string, digits: number): Intl.NumberFormat {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
