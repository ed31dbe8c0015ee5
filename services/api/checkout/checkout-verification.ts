import type { CheckoutRequest } from '../../../packages/checkout/checkout-request-schema.ts';
import { checkoutRequestSchema } from '../../../packages/checkout/checkout-request-schema.ts';
import { refuseCardNumbersInText } from '../../../packages/http/card-numbers-in-parameters.ts';
import type { CheckoutOfferView, CheckoutView } from '../../../packages/checkout/checkout-view.ts';
import { decodeSignedCheckoutRequest, signatureMatches } from '../../../packages/checkout/signed-checkout-request.ts';
import { threeDSecureRequirements } from '../../../packages/commands/three-d-secure-options.ts';
import { rememberedCardCanPay } from './checkout-three-d-secure.ts';
import type { Mode } from '../../../packages/domain/mode.ts';
import { InvalidRequestError, NotFoundError, missingParameter } from '../../../packages/domain/errors.ts';
import { HttpError } from '../../../packages/http/errors.ts';
import type { AuthContext } from '../../../packages/http/route.ts';
import { validateParameters } from '../../../packages/http/validation.ts';
import type { ReadModels } from '../../../packages/projection-runtime/read-models.ts';
import { accountsCollection, type AccountDoc } from '../../../projections/accounts-projection.ts';
import { customersCollection } from '../../../projections/customers-projection.ts';
import { plansCollection } from '../../../projections/plans-projection.ts';
import type { ObjectReader } from '../object-reader.ts';

/** A signed checkout request that passed every check, with the page's view of it. */
export interface VerifiedCheckout {
  /** The account and mode of the public key that opened checkout. */
  auth: AuthContext;
  request: CheckoutRequest;
  view: CheckoutView;
  /** The merchant's sites that may frame checkout (`accounts settings --checkout-origins`). */
  checkoutOrigins: string[];
}

export interface CheckoutVerificationDependencies {
  authenticate(apiKey: string): AuthContext | null | Promise<AuthContext | null>;
  secretKey(accountId: string, mode: Mode): Promise<string | null>;
  reader: ObjectReader;
  readModels: ReadModels;
  /** The cross-sale offers the account may show, in the order asked; throws for one it may not. */
  offersAvailableTo(accountId: string, mode: Mode, offerIds: string[]): Promise<CheckoutOfferView[]>;
}

/**
 * Checks a checkout request as the page and every call of the page receive it: the public key,
 * the signature against the secret key of the key's account and mode (so a request signed for
 * another account is refused), the request's shape, and what it names (customer, plan, offers)
 * in that account. Nothing is recorded.
 */
export async function verifyCheckoutRequest(
  deps: CheckoutVerificationDependencies,
  input: { key: unknown; checkoutRequest: unknown },
): Promise<VerifiedCheckout> {
  const auth = await publicKeyAuth(deps, input.key);
  if (typeof input.checkoutRequest !== 'string' || input.checkoutRequest === '')
    throw missingParameter('checkoutRequest');
  const signed = decodeSignedCheckoutRequest(input.checkoutRequest);
  if (!signed)
    throw new InvalidRequestError(
      'Invalid parameter: checkoutRequest must be a signed checkout request (BASE64 of signature|json)',
    );
  const secretKey = await deps.secretKey(auth.accountId, auth.mode);
  if (secretKey === null || !signatureMatches(signed, secretKey))
    throw new InvalidRequestError(
      "Invalid parameter: checkoutRequest is not signed with this account's secret key for this mode",
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(signed.json);
  } catch {
    throw new InvalidRequestError('Invalid parameter: checkoutRequest does not hold a JSON object');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new InvalidRequestError('Invalid parameter: checkoutRequest does not hold a JSON object');
  // What the merchant signed is stored (metadata of charges and subscriptions) like parameters are.
  refuseCardNumbersInText(parsed, ['checkoutRequest']);
  const request = validateParameters(checkoutRequestSchema, parsed);
  const account = await deps.readModels.collection(accountsCollection).get(auth.accountId);
  if (!account) throw new HttpError(401, 'invalid_request', 'Invalid API key');
  return {
    auth,
    request,
    view: await viewOf(deps, auth, account, request, input.checkoutRequest, input.key as string),
    // Read models written before the setting existed have no list: none named.
    checkoutOrigins: account.settings.checkoutOrigins ?? [],
  };
}

/** Checkout is opened in the payer's browser: only a public key belongs there. */
async function publicKeyAuth(deps: CheckoutVerificationDependencies, key: unknown): Promise<AuthContext> {
  if (typeof key !== 'string' || key === '') throw new HttpError(401, 'invalid_request', 'key: Must not be empty.');
  if (!key.startsWith('pk_'))
    throw new HttpError(401, 'invalid_request', 'Checkout takes the public key (pk_…), never the secret key');
  const auth = await deps.authenticate(key);
  if (!auth || auth.keyKind !== 'public') throw new HttpError(401, 'invalid_request', 'Invalid API key');
  return auth;
}

async function viewOf(
  deps: CheckoutVerificationDependencies,
  auth: AuthContext,
  account: AccountDoc,
  request: CheckoutRequest,
  checkoutRequest: string,
  publicKey: string,
): Promise<CheckoutView> {
  const currency = request.charge?.currency ?? request.customCharge?.currency ?? null;
  const accepted = account.settings.acceptedCurrencies;
  if (currency !== null && accepted !== null && !accepted.includes(currency))
    throw new InvalidRequestError(
      `Invalid parameter: checkoutRequest currency ${currency} is not accepted by this account`,
    );
  return {
    publicKey,
    mode: auth.mode,
    checkoutRequest,
    merchant: { accountId: auth.accountId, name: account.name },
    kind: request.charge ? 'charge' : request.subscription ? 'subscription' : 'customCharge',
    charge: request.charge ? { amount: request.charge.amount, currency: request.charge.currency } : null,
    subscription: request.subscription ? await planOf(deps, auth, request.subscription.planId) : null,
    customCharge: request.customCharge
      ? {
          currency: request.customCharge.currency,
          amountOptions: request.customCharge.amountOptions ?? [],
          customAmount: request.customCharge.customAmount ?? null,
        }
      : null,
    customer: request.customerId ? await customerOf(deps, auth, request.customerId) : null,
    rememberMe: request.rememberMe ?? false,
    rememberedCards: (request.rememberMe ?? false) && rememberedCardCanPay(request),
    threeDSecure: { enable: request.threeDSecure?.enable ?? false, ...threeDSecureView(request) },
    termsAndConditionsUrl: request.termsAndConditionsUrl ?? null,
    paymentMethodTypes: request.paymentMethodTypes ?? [],
    crossSaleOffers: request.crossSaleOfferIds?.length
      ? await deps.offersAvailableTo(auth.accountId, auth.mode, request.crossSaleOfferIds)
      : [],
  };
}

/** The requirements as every charge applies them (the API's defaults). */
function threeDSecureView(request: CheckoutRequest) {
  const { requireEnrolledCard, requireSuccessfulLiabilityShiftForEnrolledCard } = threeDSecureRequirements(
    request.threeDSecure,
  );
  return { requireEnrolledCard, requireSuccessfulLiabilityShiftForEnrolledCard };
}

async function planOf(
  deps: CheckoutVerificationDependencies,
  auth: AuthContext,
  planId: string,
): Promise<NonNullable<CheckoutView['subscription']>> {
  const plan = await deps.reader.get(plansCollection, planId, auth).catch(notFoundAs('subscription[planId]', 'plan'));
  if (plan.deleted) throw new InvalidRequestError(`Invalid parameter: subscription[planId] names a deleted plan`);
  return {
    planId: plan.id,
    name: plan.name,
    amount: plan.amount,
    currency: plan.currency,
    interval: plan.interval,
    intervalCount: plan.intervalCount,
    trialPeriodDays: plan.trialPeriodDays ?? null,
  };
}

async function customerOf(
  deps: CheckoutVerificationDependencies,
  auth: AuthContext,
  customerId: string,
): Promise<NonNullable<CheckoutView['customer']>> {
  const customer = await deps.reader
    .get(customersCollection, customerId, auth)
    .catch(notFoundAs('customerId', 'customer'));
  if (customer.deleted) throw new InvalidRequestError('Invalid parameter: customerId names a deleted customer');
  return { id: customer.id, email: customer.email };
}

/** A named object missing from the account is the request's fault: 400, naming the parameter. */
function notFoundAs(parameter: string, objectName: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof NotFoundError)
      throw new InvalidRequestError(`Invalid parameter: ${parameter} does not name an existing ${objectName}`);
    throw error;
  };
}
