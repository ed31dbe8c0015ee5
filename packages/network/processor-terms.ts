import type { AccountProcessor } from '../domain/account/account-events.ts';
import { GatewayError } from '../domain/errors.ts';
import type {
  AuthorizationOutcome,
  AuthorizationRequest,
  BinInfo,
  CreditOutcome,
  CreditRequest,
  PaymentAddress,
} from './card-network.ts';
import {
  ProcessorOutcomeUnknown,
  ProcessorUnreachable,
  type ProcessorAuthorization,
  type ProcessorCardInfo,
  type ProcessorCardPayment,
  type ProcessorCredit,
  type ProcessorRefundRequest,
} from './processors/processor.ts';

/* The card network port's requests and answers in a processor's terms, and back. */

/** A capture or a refund as the processor that holds the charge takes it: the charge by that processor's id. */
export function holderRequest(
  request: PaymentAddress & { reference: string; amount: number; currency: string },
): ProcessorRefundRequest {
  return {
    reference: request.reference,
    processorId: request.transactionId,
    amount: request.amount,
    currency: request.currency,
  };
}

/** A capture or refund at the processor that holds the charge: any failure is a `gateway_error`. */
export async function answeredOrGatewayError<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProcessorUnreachable || error instanceof ProcessorOutcomeUnknown)
      throw new GatewayError(
        `The processor did not answer; retry the request with the same Idempotency-Key. (${error.message})`,
      );
    throw error;
  }
}

export function authorizationOutcome(answer: ProcessorAuthorization, processorId: string): AuthorizationOutcome {
  return {
    approved: answer.approved,
    transactionId: answer.processorId,
    failure: answer.decline
      ? { code: answer.decline.code, message: answer.decline.message, issuerDeclineCode: answer.decline.processorCode }
      : null,
    avsResult: null,
    fraud: { status: 'unknown', score: 0 },
    threeDSecureInfo: null,
    later: [],
    processorId,
    card: binInfoOf(answer.card ?? null),
  };
}

/** A processor's card data in the port's terms; null when it said nothing. */
export function binInfoOf(card: ProcessorCardInfo | null): Partial<BinInfo> | null {
  if (!card || Object.keys(card).length === 0) return null;
  return { ...card };
}

export function creditOutcome(answer: ProcessorCredit): CreditOutcome {
  return {
    approved: answer.approved,
    failure: answer.decline
      ? { code: answer.decline.code, message: answer.decline.message, issuerDeclineCode: answer.decline.processorCode }
      : null,
  };
}

/**
 * The card payment a processor is sent for an authorization or a credit of the card network port:
 * the card as this processor keeps it when it does (a card-on-file payment, no CVC needed), and
 * who initiates it.
 */
export function cardPaymentOf(
  request: AuthorizationRequest | CreditRequest,
  config: AccountProcessor,
): ProcessorCardPayment {
  // With its CVC the card goes as given (the issuer checks the CVC); without, as the card kept there.
  const storedCard =
    request.cvc === undefined
      ? request.processorCards?.find((kept) => kept.processorId === config.processorId)?.storedCard
      : undefined;
  const type = 'type' in request ? request.type : undefined;
  return {
    reference: request.reference,
    number: request.number,
    expMonth: request.expMonth,
    expYear: request.expYear,
    ...(request.cvc !== undefined ? { cvc: request.cvc } : {}),
    ...(storedCard ? { storedCard } : {}),
    ...(type ? { type } : {}),
    amount: request.amount,
    currency: request.currency,
  };
}
