import type { CheckoutResult, CheckoutToPage } from '../messages.ts';
import { onServiceMessage, openOverlay, serviceOrigin, Shift4Error, type Overlay } from '../service.ts';

/**
 * Checkout.js of this service (`/js/checkout.js`, also `/checkout.js`): `Shift4Checkout.key`,
 * `.success`, `.error`, `.open(options, callback?)`, also as `SecurionpayCheckout`, and the button
 * integration (`<script class="shift4-button" data-…>` in a form, or `class="securionpay-button"`),
 * as the public Shift4 Checkout offers them (docs/checkout.md). Checkout is a frame of the service
 * in a dialog over the merchant's page; the card data stays in the service's frames.
 */

export interface CheckoutOpenOptions {
  checkoutRequest: string;
  name?: string;
  description?: string;
  email?: string;
  /** The payer's language (`de`, `fr-BE`…); the browser's by default, English when not offered. */
  locale?: string;
  /** The merchant's logo (an http(s) URL), shown above the name. */
  image?: string;
  /** Ask the payer for the card's billing address (recorded on the card). */
  billingAddress?: boolean;
  /** Ask the payer for a shipping address (the charge's or subscription's `shipping`). */
  shippingAddress?: boolean;
}

/** Other names public pages give the same options. */
const OPTION_ALIASES: Record<string, keyof CheckoutOpenOptions> = {
  collectBillingAddress: 'billingAddress',
  collectShippingAddress: 'shippingAddress',
};

/**
 * Options public pages pass that this checkout does not take, and why (docs/client-side.md,
 * "Public integrations"): said in the console instead of being ignored silently.
 */
const UNSUPPORTED_OPTIONS: Record<string, string> = {
  amount: "the amount is the signed checkout request's",
  currency: "the currency is the signed checkout request's",
  rememberMe: 'a field of the signed checkout request, not an option',
  crossSaleOfferIds: 'a field of the signed checkout request, not an option',
  clientSecret: 'checkout sessions are not offered; sign a checkoutRequest',
  redirect: 'checkout stays in its dialog; use the success callback or the form the button is in',
  redirectUrl: 'checkout stays in its dialog; use the success callback or the form the button is in',
};

/** Options that are used, and those known to be harmless to drop (`key` is `Shift4Checkout.key`). */
const KNOWN_OPTIONS = new Set([
  'checkoutRequest',
  'name',
  'description',
  'email',
  'locale',
  'image',
  'billingAddress',
  'shippingAddress',
  'key',
]);

type SuccessHandler = (result: CheckoutResult) => void;
/**
 * Gets the message, as the public library gives it (pages show it with `.text(errorMessage)`); the
 * second argument is the error with its `type` and `code`, for pages that want them.
 */
type ErrorHandler = (message: string, error: Shift4Error) => void;

interface Shift4CheckoutApi {
  key: string | null;
  success: SuccessHandler | null;
  error: ErrorHandler | null;
  open(options: CheckoutOpenOptions, callback?: SuccessHandler): void;
  close(): void;
}

const global = window as unknown as { Shift4Checkout?: Shift4CheckoutApi; SecurionpayCheckout?: Shift4CheckoutApi };

/**
 * The page's object. Loaded twice (two buttons on one page), the script keeps the object the page
 * already set its key and handlers on.
 */
const Shift4Checkout: Shift4CheckoutApi = global.Shift4Checkout ?? {
  key: null,
  success: null,
  error: null,
  open(options, callback) {
    // A `key` option serves for this checkout only, as `data-key` does for a button.
    const key = (options as { key?: unknown } | undefined)?.key;
    openCheckout(options, typeof key === 'string' ? key : Shift4Checkout.key, callback);
  },
  close: () => closeCheckout(),
};
global.Shift4Checkout = Shift4Checkout;
global.SecurionpayCheckout = Shift4Checkout;

/** The checkout open now: one at a time per page. */
let current: { overlay: Overlay; stopListening(): void; closed: Array<() => void> } | null = null;

function closeCheckout(): void {
  if (!current) return;
  const { overlay, stopListening, closed } = current;
  current = null;
  stopListening();
  overlay.close();
  for (const listener of closed) listener();
}

/** Invalid use is reported to `error` when the page set one, thrown otherwise. */
function fail(message: string): void {
  const error = new Shift4Error({ type: 'invalid_request', message });
  if (Shift4Checkout.error) reportError(error);
  else throw error;
}

function reportError(error: Shift4Error): void {
  Shift4Checkout.error?.(error.message, error);
}

/** The options as this checkout reads them: aliases resolved; unsupported ones said in the console. */
function readOptions(given: Record<string, unknown>): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given ?? {})) {
    if (value === undefined || value === null) continue;
    const known = OPTION_ALIASES[name] ?? name;
    if (KNOWN_OPTIONS.has(known)) options[known] = value;
    else
      console.warn(
        `Shift4Checkout: the option ${name} is not supported here${UNSUPPORTED_OPTIONS[name] ? ` (${UNSUPPORTED_OPTIONS[name]})` : ''}; it is ignored.`,
      );
  }
  return options;
}

/** `true`, `"true"` (a data- attribute) and `"1"` ask for it. */
const isYes = (value: unknown): boolean => value === true || value === 'true' || value === '1';

function openCheckout(
  given: CheckoutOpenOptions,
  key: string | null | undefined,
  callback: SuccessHandler | undefined,
  onClosed?: (succeeded: boolean) => void,
): void {
  const options = readOptions(given as unknown as Record<string, unknown>) as Partial<CheckoutOpenOptions>;
  if (typeof key !== 'string' || !/^pk_(test|live)_/.test(key))
    return fail('Set Shift4Checkout.key (or data-key) to your public key (pk_…) before opening checkout');
  if (typeof options.checkoutRequest !== 'string' || options.checkoutRequest === '')
    return fail('Shift4Checkout.open needs a signed checkoutRequest');
  // A second open replaces the checkout still open.
  closeCheckout();

  const url = new URL('/checkout', serviceOrigin);
  const params = new URLSearchParams({
    key,
    checkoutRequest: options.checkoutRequest,
    origin: location.origin,
    locale: options.locale || navigator.language,
  });
  for (const name of ['name', 'description', 'email', 'image'] as const) {
    const value = options[name];
    if (typeof value === 'string' && value !== '') params.set(name, value);
  }
  for (const name of ['billingAddress', 'shippingAddress'] as const) if (isYes(options[name])) params.set(name, '1');
  url.search = params.toString();

  let succeeded = false;
  const overlay = openOverlay(url, 'Checkout', { onDismiss: closeCheckout, closeLabel: 'Close checkout', height: 620 });
  const stopListening = onServiceMessage<CheckoutToPage>(
    'shift4-checkout',
    () => overlay.frame.contentWindow,
    (message) => {
      switch (message.type) {
        case 'ready':
          // Until then the names are English: the page tells them in the payer's language.
          overlay.relabel(message.labels.dialog, message.labels.close);
          break;
        case 'resize':
          overlay.resize(message.height);
          break;
        case 'success':
          // The dialog stays open: the payer sees the receipt and any offers, and closes it.
          succeeded = true;
          (callback ?? Shift4Checkout.success)?.(message.result);
          break;
        case 'error':
          reportError(new Shift4Error(message.error));
          break;
        case 'close':
          closeCheckout();
          break;
        case 'challenge':
          overlay.setDismissible(!message.open);
          break;
      }
    },
  );
  current = { overlay, stopListening, closed: onClosed ? [() => onClosed(succeeded)] : [] };
}

/** The script classes of the button integration: Shift4's, and SecurionPay's for pages written for it. */
const BUTTON_CLASSES = ['shift4-button', 'securionpay-button'] as const;

/**
 * The `data-` attributes of the button integration that only label or style the button; the
 * others are `open` options by their camel-cased name (`data-billing-address` → `billingAddress`).
 */
const BUTTON_ATTRIBUTES = new Set(['key', 'checkoutButton', 'buttonText', 'class']);

/**
 * The button integration: the script tag (`class="shift4-button"` or `"securionpay-button"`,
 * inside a form) is replaced in effect by a pay button after it. A successful payment adds the
 * ids to the form as hidden inputs; the form is submitted once the payer closes checkout (after
 * any offers).
 */
function mountButton(script: HTMLScriptElement, buttonClass: string): void {
  const form = script.closest('form');
  const data = script.dataset;
  const button = document.createElement('button');
  button.type = 'button';
  // `data-class`: the merchant's own classes for the button, besides the integration's.
  button.className = [buttonClass, ...(data.class ?? '').split(/\s+/).filter(Boolean)].join(' ');
  // `data-checkout-button` is the public integration's label; `data-button-text` this service's own.
  button.textContent = data.checkoutButton || data.buttonText || 'Pay';
  script.after(button);
  const options: Record<string, string> = {};
  for (const [name, value] of Object.entries(data))
    if (!BUTTON_ATTRIBUTES.has(name) && value !== undefined && value !== '') options[name] = value;
  button.addEventListener('click', () => {
    // The button's own key; the page's `Shift4Checkout.key` is left as the page set it.
    openCheckout(
      options as unknown as CheckoutOpenOptions,
      data.key ?? Shift4Checkout.key,
      (paid) => {
        Shift4Checkout.success?.(paid);
        if (form) addResultInputs(form, paid);
      },
      (succeeded) => {
        if (succeeded && form) form.submit();
      },
    );
  });
}

/**
 * The ids a successful payment adds to the button's form: as `shift4ChargeId`… and as
 * `securionpayChargeId`…, the names merchants' servers read them by, whichever script they load.
 */
function addResultInputs(form: HTMLFormElement, result: CheckoutResult): void {
  const ids: Record<string, unknown> = {};
  for (const prefix of ['shift4', 'securionpay']) {
    ids[`${prefix}ChargeId`] = idOf(result.charge);
    ids[`${prefix}SubscriptionId`] = idOf(result.subscription);
    ids[`${prefix}CustomerId`] = idOf(result.customer);
  }
  for (const [name, value] of Object.entries(ids)) {
    if (typeof value !== 'string') continue;
    const existing = form.querySelector<HTMLInputElement>(`input[type=hidden][name="${name}"]`);
    const input = existing ?? document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    if (!existing) form.append(input);
  }
}

function idOf(object: unknown): unknown {
  return typeof object === 'object' && object !== null ? (object as { id?: unknown }).id : undefined;
}

const script = document.currentScript as HTMLScriptElement | null;
const buttonClass = BUTTON_CLASSES.find((name) => script?.classList.contains(name));
if (script && buttonClass) mountButton(script, buttonClass);
