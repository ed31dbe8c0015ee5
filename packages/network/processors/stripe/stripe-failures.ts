import { ProcessorUnreachable } from '../processor.ts';

/**
 * Stripe answered that it will not carry out the request (key refused, request invalid, payment in
 * a state that does not allow it): nothing was taken. It is a `ProcessorUnreachable` for routing:
 * the next processor may be tried, and with none left the answer is a `gateway_error`.
 */
export class StripeRefused extends ProcessorUnreachable {
  constructor(
    message: string,
    /** Stripe's HTTP status and error code, for logs. */
    readonly status: number,
    readonly stripeCode: string | null,
  ) {
    super(message);
    this.name = 'StripeRefused';
  }
}

/**
 * Stripe has no card credits (sending money to a card needs Stripe Connect payouts to a connected
 * account, which this adapter does not manage). Thrown before any call, so routing skips Stripe for
 * credits like a processor that cannot be reached, and tries the account's next processor.
 */
export class StripeTakesNoCredits extends ProcessorUnreachable {
  constructor() {
    super('Stripe takes no card credits: credits are routed to another processor of the account');
    this.name = 'StripeTakesNoCredits';
  }
}
