import type { AccountProcessor } from '../domain/account/account-events.ts';
import { GatewayError } from '../domain/errors.ts';
import type { AuthorizationRequest, CreditRequest } from './card-network.ts';

/**
 * The candidates that can take the card as it comes. A card on file comes without its CVC, so only
 * a processor that keeps a copy of it can charge it: one added after the card was saved holds none
 * (a copy cannot be made there later, without the CVC this service never keeps), and is passed over.
 * A card kept nowhere (saved before the account had processors) is sent as it is.
 */
export function ableToCharge(
  payment: AuthorizationRequest | CreditRequest,
  candidates: readonly AccountProcessor[],
): readonly AccountProcessor[] {
  const kept = payment.cvc === undefined ? (payment.processorCards ?? []) : [];
  if (kept.length === 0) return candidates;
  const holders = candidates.filter((config) => kept.some((copy) => copy.processorId === config.processorId));
  if (holders.length === 0)
    throw new GatewayError(
      'No processor that takes this payment keeps a copy of this card; pay with its CVC (card details or a new token).',
    );
  return holders;
}

/** Whether a processor takes cards of this brand (all brands when it names none). */
export function takesBrand(config: AccountProcessor, brand: string): boolean {
  return config.brands === null || config.brands.some((taken) => taken === brand);
}
