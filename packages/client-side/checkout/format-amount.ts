/** Digits of the currency's minor unit (2 for EUR, 0 for JPY), as the browser knows them. */
export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** `1000` EUR → `10.00 EUR`, as the service's pages write amounts. */
export function formatAmount(amount: number, currency: string): string {
  const digits = currencyDigits(currency);
  return `${(amount / 10 ** digits).toFixed(digits)} ${currency}`;
}
