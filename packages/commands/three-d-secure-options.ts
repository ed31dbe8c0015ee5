import type { ThreeDSecureResult } from '../domain/charge/charge-events.ts';
import type { ThreeDSecureRequest, ThreeDSecureRequirements } from '../network/card-network.ts';

/**
 * The token's own 3-D Secure result counts for a charge of the amount and currency it was verified
 * for; for any other amount the charge is as if the card had not been verified.
 */
export function verifiedFor(
  info: ThreeDSecureResult | null,
  payment: { amount: number; currency: string },
): ThreeDSecureResult | null {
  return info && info.amount === payment.amount && info.currency === payment.currency ? info : null;
}

/**
 * The merchant's 3-D Secure requirements with the spec's defaults: an enrolled card must shift
 * liability unless the merchant says otherwise. Every charge, the checkout's included, gets them here.
 */
export function threeDSecureRequirements(
  options: Partial<ThreeDSecureRequirements> | undefined,
): ThreeDSecureRequirements {
  return {
    requireAttempt: options?.requireAttempt ?? false,
    requireEnrolledCard: options?.requireEnrolledCard ?? false,
    requireSuccessfulLiabilityShiftForEnrolledCard: options?.requireSuccessfulLiabilityShiftForEnrolledCard ?? true,
  };
}

/**
 * The 3-D Secure options of a charge: the request's flags with the spec's defaults, applied to the
 * token's verification when there is one (also without `threeDSecure` in the request); none when
 * the request asks for nothing and the token was not verified.
 */
export function threeDSecureRequest(
  options: Partial<ThreeDSecureRequest> | undefined,
  verified: ThreeDSecureResult | null,
): ThreeDSecureRequest | null {
  if (!options && !verified) return null;
  return {
    ...threeDSecureRequirements(options),
    ...(verified ? { verified } : {}),
    ...(options?.external ? { external: options.external } : {}),
  };
}
