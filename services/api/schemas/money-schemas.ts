import currencyCodes from 'currency-codes';
import { p } from '../../../packages/http/params.ts';

/** Largest amount of one charge, refund or credit, in minor units (our limit; the spec sets none). */
export const MAX_AMOUNT = 99_999_999;

/** A positive amount in minor units of the currency. */
export const amount = (description = 'Amount in minor units of the currency') =>
  p.int({ min: 1, max: MAX_AMOUNT, description });

/** An ISO 4217 currency the maintained code list knows, upper-cased. */
export const isoCurrency = () =>
  p.currency().refine((code) => currencyCodes.code(code) !== undefined, { error: 'must be an ISO 4217 currency code' });
