/**
 * What every request benchmark starts the service with and sends, so that their figures are of
 * the same process and the same requests.
 */

/** Effectively no rate limit (the benchmarks would otherwise measure 429s), and no response schema checks, as in production. */
export const BENCH_SERVICE_ENV = {
  RATE_LIMIT_PER_SECOND: '1000000',
  RATE_LIMIT_BURST: '1000000',
  STRICT_RESPONSES: 'false',
} as const;

/** A customer created with an email and metadata. */
export const CUSTOMER = { email: 'bench@example.com', metadata: { k: 'v' } };

/** A charge with new card details every time: validation, vault, network, charge stream, read models. */
export const CHARGE = {
  amount: 1999,
  currency: 'EUR',
  card: { number: '4242424242424242', expMonth: '12', expYear: '2034', cvc: '123' },
  metadata: { k: 'v' },
};

export const CUSTOMER_BODY = JSON.stringify(CUSTOMER);
export const CHARGE_BODY = JSON.stringify(CHARGE);
