/**
 * What the hosted checkout page shows, once the service has verified the signed checkout request:
 * rendered into the page by the service and read by the page's script. Type-only, shared by the
 * service and the browser build.
 */

import type { Catalog, Locale } from '../client-side/i18n/index.ts';

export type CheckoutKind = 'charge' | 'subscription' | 'customCharge';

/** A plan as the payer is told it: its name, price per interval and trial. */
export interface OfferedPlan {
  planId: string;
  name: string;
  amount: number;
  currency: string;
  interval: 'hour' | 'day' | 'week' | 'month' | 'year';
  intervalCount: number;
  trialPeriodDays: number | null;
}

export interface CheckoutOfferView {
  id: string;
  /** Account the offer belongs to (the merchant's own, or a partner's). */
  accountId: string;
  template: 'image_and_text' | 'text_only';
  title: string;
  description: string | null;
  imageUrl: string | null;
  /** A charge offer's price; null for a subscription offer. */
  charge: { amount: number; currency: string } | null;
  /** A subscription offer's plan (of the offer's account), as the payer is told it; null for a charge offer. */
  subscription: OfferedPlan | null;
  companyName: string | null;
  companyLocation: string | null;
  termsAndConditionsUrl: string | null;
}

export interface CheckoutView {
  publicKey: string;
  mode: 'test' | 'live';
  /** The signed request as received: sent back with every call the page makes. */
  checkoutRequest: string;
  merchant: { accountId: string; name: string };
  kind: CheckoutKind;
  /** `kind: 'charge'`: the fixed amount. */
  charge: { amount: number; currency: string } | null;
  /** `kind: 'subscription'`: the plan, as the payer is told it. */
  subscription: OfferedPlan | null;
  /** `kind: 'customCharge'`: amounts offered as buttons and/or typed within bounds. */
  customCharge: {
    currency: string;
    amountOptions: number[];
    customAmount: { min: number; max: number } | null;
  } | null;
  /** The customer named by the request (`customerId`); null: a new customer from the typed email. */
  customer: { id: string; email: string | null } | null;
  /** Whether the payer may choose to be remembered (and use a remembered card). */
  rememberMe: boolean;
  /**
   * Whether the page offers remembered cards: with `rememberMe`, except for a subscription whose
   * 3-D Secure requirements a remembered card (verified for no payment of this checkout) cannot meet.
   */
  rememberedCards: boolean;
  threeDSecure: {
    enable: boolean;
    requireEnrolledCard: boolean;
    requireSuccessfulLiabilityShiftForEnrolledCard: boolean;
  };
  termsAndConditionsUrl: string | null;
  /** Payment methods offered besides cards (charges only): `ideal`, `paypal`, … */
  paymentMethodTypes: string[];
  /** Offers shown after the main transaction succeeded. */
  crossSaleOffers: CheckoutOfferView[];
}

/** Everything the page is rendered from. */
export interface CheckoutPageInput {
  view: CheckoutView;
  /** What the merchant's `Shift4Checkout.open` asked to show (already length-limited; not yet escaped). */
  display: {
    name: string | null;
    description: string | null;
    email: string | null;
    /** The merchant's logo: an http(s) URL, which the page's policy lets it load. */
    image: string | null;
    /** Ask for the card's billing address; ask for a shipping address. */
    billingAddress: boolean;
    shippingAddress: boolean;
  };
  /** The countries an address may name, by code, with their names in the page's language. */
  countries: Array<{ code: string; name: string }>;
  /** Origin of the merchant's page that opened checkout: the only target of the page's messages. */
  ancestorOrigin: string | null;
  /** The payer's language: the merchant's `locale` option, else the browser's, else English. */
  locale: Locale;
  /** That language's catalog, for what the page's script writes (the script carries none). */
  messages: Catalog;
}
