import currencyCodes from 'currency-codes';

/** Digits of the currency's minor unit: 2 for EUR, 0 for JPY. */
export function currencyDigits(currency: string): number {
  return currencyCodes.code(currency)?.digits ?? 2;
}

/** `1000` EUR → `10.00 EUR`, by the currency's minor unit. */
export function formatAmount(amount: number, currency: string): string {
  const digits = currencyDigits(currency);
  return `${(amount / 10 ** digits).toFixed(digits)} ${currency}`;
}
