import type { CardError } from '../domain/errors.ts';
import type { CommandOutcome } from './command-outcome.ts';

/**
 * A payment (charge or credit) the network declined or a rule blocked: it is recorded, and the
 * request must answer 402 with `cardError` once the recorded object is readable.
 */
export class PaymentDeclined extends Error {
  constructor(
    readonly outcome: CommandOutcome,
    readonly cardError: CardError,
  ) {
    super(cardError.message);
    this.name = 'PaymentDeclined';
  }
}
