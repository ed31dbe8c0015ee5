import type { ThreeDSecureResult } from '../charge/charge-events.ts';

/** A challenge is open while the result is `pending`; it then ends `successful` or `failed`. */
export const challengeOpen = (info: ThreeDSecureResult | null | undefined): info is ThreeDSecureResult =>
  info != null && info.liabilityShift === 'pending' && info.authenticationFlow === 'challenge';
