/**
 * Typed domain errors. Deciders and command handlers throw these; the HTTP layer maps them to the
 * spec's error envelope (`docs/architecture.md`, "Errors"). Messages are shown to API clients: never put a card number,
 * a CVC, a stack or an internal identifier in them.
 */

export type CardErrorCode =
  | 'invalid_number'
  | 'invalid_expiry_month'
  | 'invalid_expiry_year'
  | 'invalid_cvc'
  | 'incorrect_cvc'
  | 'incorrect_zip'
  | 'expired_card'
  | 'insufficient_funds'
  | 'lost_or_stolen'
  | 'suspected_fraud'
  | 'limit_exceeded'
  | 'card_declined'
  | 'processing_error'
  | 'blacklisted'
  | 'expired_token'
  | 'authentication_required'
  | 'do_not_try_again'
  | 'currency_not_supported'
  | 'brand_not_supported';

/** A refusal the client is told about; the HTTP layer maps each subclass to its status and type. */
export abstract class DomainError extends Error {}

/**
 * The request cannot be carried out as asked: HTTP 400 `invalid_request`; `param` names the
 * parameter at fault when one is (answered as the envelope's `param`).
 */
export class InvalidRequestError extends DomainError {
  constructor(
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = 'InvalidRequestError';
  }
}

/**
 * A required parameter is missing. One format for every one of them, as client libraries print
 * it: `email: Must not be empty.`, optionally followed by what would do instead.
 */
export function missingParameter(name: string, hint?: string): InvalidRequestError {
  return new InvalidRequestError(`${name}: Must not be empty.${hint ? ` ${hint}` : ''}`);
}

/** The object does not exist for this account and mode: HTTP 404 `invalid_request`. */
export class NotFoundError extends DomainError {
  constructor(
    readonly objectName: string,
    readonly objectId: string,
  ) {
    super(`${objectName} '${objectId}' does not exist`);
    this.name = 'NotFoundError';
  }
}

export interface CardErrorDetails {
  chargeId?: string;
  creditId?: string;
  issuerDeclineCode?: string;
  blacklistRuleId?: string;
}

/** Card processing failed or card data is invalid: HTTP 402 `card_error` with `code`. */
export class CardError extends DomainError {
  constructor(
    readonly code: CardErrorCode,
    message: string,
    readonly details: CardErrorDetails = {},
  ) {
    super(message);
    this.name = 'CardError';
  }
}

/**
 * The card network could not carry out the request (not a decline): HTTP 502 `gateway_error`.
 * Nothing is recorded; the message says what is wrong.
 */
export class GatewayError extends DomainError {
  constructor(message: string) {
    super(message);
    this.name = 'GatewayError';
  }
}
