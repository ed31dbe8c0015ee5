import type {
  ThreeDSecureInfo,
  ThreeDSecureLookup,
  ThreeDSecureRequest,
  ThreeDSecureRequirements,
} from './card-network.ts';
import { ISSUER_AUTHENTICATION_REQUIRED, networkFailure } from './network-failures.ts';
import type { NetworkFailure } from './network-failures.ts';
import type { TestCardBehaviour } from './test-cards.ts';

/**
 * 3-D Secure of the simulated network. Enrolment comes from the test-card table: 4000000000003220
 * is enrolled with a challenge flow, 4000000000003063 enrolled frictionless, 4000000000003238
 * enrolled frictionless but refused by its issuer, every other card (4000000000003089 included)
 * not enrolled.
 *
 * Without 3-D Secure options (`threeDSecure: null`) there is no `threeDSecureInfo`; the challenge
 * card still fails `authentication_required` (issuer code 1A: the issuer demands authentication).
 *
 * With options but no `external` result (no challenge can be completed inside one API call):
 * - enrolled frictionless → enrolled, liabilityShift `successful` (`failed` for the refusing
 *   issuer), flow `frictionless`;
 * - enrolled challenge    → enrolled, liabilityShift `failed`, flow `challenge`;
 * - not enrolled          → not enrolled, liabilityShift `not_possible`, flow null.
 *
 * With a `verified` result (the token's verification by this service for the charge's amount and
 * currency, `lookupThreeDSecure` plus the challenge the cardholder completed or failed) that result
 * stands: frictionless → `successful`; challenge → `successful` or `failed` as completed, `pending`
 * while still open; not enrolled → `not_possible`. An authenticated challenge card passes the
 * issuer's demand for authentication.
 *
 * With an `external` result the merchant's own 3-D Secure service decides liability:
 * status `Y` (authenticated) or `A` (attempted) → `successful`; `N`, `R`, `U`, `E` → `failed`.
 * The card counts as enrolled when the table says so or when an ACS answered (`Y`, `N`, `R`);
 * the flow is the table's flow for enrolled cards, else null.
 *
 * Then the merchant's requirements, first failure wins, each → `authentication_required` with
 * issuer code null (the issuer did not decline):
 * 1. `requireAttempt`: fails when no attempt was possible (not enrolled and no external result);
 * 2. `requireEnrolledCard`: fails when the card is not enrolled;
 * 3. `requireSuccessfulLiabilityShiftForEnrolledCard`: fails when the card is enrolled and the
 *    liability shift is not `successful`.
 * `threeDSecureInfo` carries the charge's amount and currency and is returned on failure too.
 * `version` is the protocol of the authentication (`2.2.0` for the simulated issuers, the external
 * result's own), null when the card is not enrolled.
 */
export interface ThreeDSecureEvaluation {
  info: ThreeDSecureInfo | null;
  failure: NetworkFailure | null;
}

const ISSUER_REQUIRES_AUTHENTICATION = networkFailure('authentication_required', {
  issuerDeclineCode: ISSUER_AUTHENTICATION_REQUIRED,
  message: 'The card requires 3-D Secure authentication.',
});
const NO_ATTEMPT_POSSIBLE = networkFailure('authentication_required', {
  message: '3-D Secure authentication could not be attempted for the card.',
});
const NOT_ENROLLED = networkFailure('authentication_required', { message: 'The card is not enrolled in 3-D Secure.' });
const NOT_AUTHENTICATED = networkFailure('authentication_required', {
  message: '3-D Secure authentication of the card was not successful.',
});

export function evaluateThreeDSecure(
  behaviour: TestCardBehaviour,
  options: ThreeDSecureRequest | null,
  charge: { amount: number; currency: string },
): ThreeDSecureEvaluation {
  const enrolment = behaviour.threeDSecure ?? 'not_enrolled';
  if (options === null) {
    return { info: null, failure: enrolment === 'challenge' ? { ...ISSUER_REQUIRES_AUTHENTICATION } : null };
  }

  const lookup = lookupThreeDSecure(behaviour);
  const tableFlow = lookup.authenticationFlow;
  const { external, verified } = options;
  let enrolled: boolean;
  let liabilityShift: ThreeDSecureInfo['liabilityShift'];
  let version: string | null = tableFlow === null ? null : SIMULATED_VERSION;
  if (verified && !external) {
    enrolled = verified.enrolled;
    liabilityShift = verified.liabilityShift;
    version = verified.version ?? version;
  } else if (external) {
    version = external.version;
    enrolled = tableFlow !== null || external.status === 'Y' || external.status === 'N' || external.status === 'R';
    liabilityShift = external.status === 'Y' || external.status === 'A' ? 'successful' : 'failed';
  } else {
    enrolled = lookup.enrolled;
    // A challenge cannot be completed inside one API call: it counts as not authenticated.
    liabilityShift =
      tableFlow === 'frictionless'
        ? lookup.frictionlessAuthenticated
          ? 'successful'
          : 'failed'
        : tableFlow === 'challenge'
          ? 'failed'
          : 'not_possible';
  }
  const info: ThreeDSecureInfo = {
    amount: charge.amount,
    currency: charge.currency,
    enrolled,
    liabilityShift,
    authenticationFlow: tableFlow,
    version,
  };

  return { info, failure: unmetRequirement(options, info, Boolean(external)) };
}

/**
 * The merchant's requirements (1–3 above) against a 3-D Secure result, first failure wins; null
 * when all are met. `external`: the result came from the merchant's own 3-D Secure service.
 */
export function unmetRequirement(
  requirements: ThreeDSecureRequirements,
  { enrolled, liabilityShift }: Pick<ThreeDSecureInfo, 'enrolled' | 'liabilityShift'>,
  external = false,
): NetworkFailure | null {
  let failure: NetworkFailure | null = null;
  if (requirements.requireAttempt && !enrolled && !external) failure = NO_ATTEMPT_POSSIBLE;
  else if (requirements.requireEnrolledCard && !enrolled) failure = NOT_ENROLLED;
  else if (requirements.requireSuccessfulLiabilityShiftForEnrolledCard && enrolled && liabilityShift !== 'successful')
    failure = NOT_AUTHENTICATED;
  return failure && { ...failure };
}

/** The protocol version the simulated issuers speak. */
const SIMULATED_VERSION = '2.2.0';

/** The simulated directory server: enrolment and flow from the test-card table. */
export function lookupThreeDSecure(behaviour: TestCardBehaviour): ThreeDSecureLookup {
  const enrolment = behaviour.threeDSecure ?? 'not_enrolled';
  switch (enrolment) {
    case 'not_enrolled':
      return { enrolled: false, authenticationFlow: null, frictionlessAuthenticated: false, version: null };
    case 'challenge':
      return {
        enrolled: true,
        authenticationFlow: 'challenge',
        frictionlessAuthenticated: false,
        version: SIMULATED_VERSION,
      };
    case 'frictionless':
    case 'frictionless_refused':
      return {
        enrolled: true,
        authenticationFlow: 'frictionless',
        frictionlessAuthenticated: enrolment === 'frictionless',
        version: SIMULATED_VERSION,
      };
  }
}
