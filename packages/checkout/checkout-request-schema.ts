import currencyCodes from 'currency-codes';
import { z } from 'zod';
import { paymentMethodTypes } from '../domain/payment-method/payment-method-events.ts';
import { p } from '../http/params.ts';

/** Largest amount a checkout request may ask for, in minor units (the API's own limit). */
const MAX_AMOUNT = 99_999_999;
/** Most amount buttons one custom charge shows. */
const MAX_AMOUNT_OPTIONS = 10;
/** Most cross-sale offers one checkout shows. */
const MAX_OFFERS = 10;

const amount = () => p.int({ min: 1, max: MAX_AMOUNT });
const currency = () =>
  p.currency().refine((code) => currencyCodes.code(code) !== undefined, { error: 'must be an ISO 4217 currency code' });

/** The charge's `description`, as `POST /charges` takes it. */
const description = () => p.string({ max: 1024 }).optional();

const chargeRequest = p
  .object({
    amount: amount(),
    currency: currency(),
    description: description(),
    capture: p.bool().optional(),
    // SecurionPay's .NET library names a checkout charge's `capture` so.
    captured: p.bool().optional(),
    metadata: p.metadata().optional(),
  })
  .refine(
    (charge) => charge.capture === undefined || charge.captured === undefined || charge.capture === charge.captured,
    {
      error: 'capture and captured must agree',
    },
  )
  .transform(({ captured, ...charge }) =>
    captured === undefined ? charge : { ...charge, capture: charge.capture ?? captured },
  );

const subscriptionRequest = p.object({
  planId: p.id('plan'),
  captureCharges: p.bool().optional(),
  metadata: p.metadata().optional(),
});

const customChargeRequest = p
  .object({
    amountOptions: z
      .array(amount(), { error: 'must be a list of amounts' })
      .min(1, { error: 'must have at least one amount' })
      .max(MAX_AMOUNT_OPTIONS, { error: `must have at most ${MAX_AMOUNT_OPTIONS} amounts` })
      .optional(),
    customAmount: p.object({ min: amount(), max: amount() }).optional(),
    currency: currency(),
    description: description(),
    capture: p.bool().optional(),
    metadata: p.metadata().optional(),
  })
  .refine((custom) => custom.amountOptions !== undefined || custom.customAmount !== undefined, {
    error: 'needs amountOptions, customAmount or both',
  })
  .refine((custom) => !custom.customAmount || custom.customAmount.min <= custom.customAmount.max, {
    error: 'customAmount min must not be greater than max',
  });

/**
 * A checkout request as a merchant signs it (spec: "Checkout request"; the fields beyond the
 * spec's table are those the public Shift4 checkout libraries and integrations send:
 * `crossSaleOfferIds`, `threeDSecure`, `termsAndConditionsUrl`, a charge's `description`, `capture`
 * (or `captured`) and `metadata`; `paymentMethodTypes` is
 * ours: the payment methods the page offers besides cards). Exactly one of `charge`,
 * `subscription` and `customCharge`. Unknown fields are refused, so that a misspelt one is noticed.
 */
export const checkoutRequestSchema = p
  .object({
    charge: chargeRequest.optional(),
    subscription: subscriptionRequest.optional(),
    customCharge: customChargeRequest.optional(),
    customerId: p.id('cust').optional(),
    crossSaleOfferIds: z
      .array(p.id('cso'), { error: 'must be a list of cross-sale offer ids' })
      .max(MAX_OFFERS, { error: `must have at most ${MAX_OFFERS} offers` })
      .optional(),
    rememberMe: p.bool().optional(),
    threeDSecure: p
      .object({
        // Optional: SecurionPay's .NET library leaves out every false flag, `enable` too.
        enable: p.bool().optional(),
        requireEnrolledCard: p.bool().optional(),
        requireSuccessfulLiabilityShiftForEnrolledCard: p.bool().optional(),
      })
      .optional(),
    paymentMethodTypes: z
      .array(z.enum(paymentMethodTypes, { error: `must be one of ${paymentMethodTypes.join(', ')}` }), {
        error: 'must be a list of payment method types',
      })
      .max(paymentMethodTypes.length, { error: 'must name each payment method type once' })
      .refine((types) => new Set(types).size === types.length, { error: 'must name each payment method type once' })
      .optional(),
    termsAndConditionsUrl: z
      .string({ error: 'must be an http(s) URL' })
      .max(2048, { error: 'must be at most 2048 characters long' })
      .refine((value) => /^https?:\/\/\S+$/i.test(value), { error: 'must be an http(s) URL' })
      .optional(),
  })
  .refine(
    (request) =>
      [request.charge, request.subscription, request.customCharge].filter((part) => part !== undefined).length === 1,
    { error: 'must define exactly one of charge, subscription and customCharge' },
  )
  .refine((request) => !(request.subscription && request.paymentMethodTypes?.length), {
    error: 'paymentMethodTypes apply to charges only: a subscription renews on a card',
  });

export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;
