import type { CheckoutResult, CheckoutToPage } from '../messages.ts';
import { onServiceMessage, openOverlay, serviceOrigin, Shift4Error, type Overlay } from '../service.ts';

/**
 * Checkout.js of this service (`/js/checkout.js`): `Shift4Checkout.key`, `.success`, `.error`,
 * `.open({ checkoutRequest, name, description, email }, callback?)`, also as
 * `SecurionpayCheckout`, and the button integration (`<script class="shift4-button" data-…>` in a
 * form), as the public Shift4 Checkout offers them (docs/checkout.md). Checkout is a frame of the
 * service in a dialog over the merchant's page; the card data stays in the service's frames.
 */

export interface CheckoutOpenOptions {
  checkoutRequest: string;
  name?: string;
  description?: string;
  email?: string;
  /** The payer's language (`de`, `fr-BE`…); the browser's by default, English when not offered. */
  locale?: string;
}

type SuccessHandler = (result: CheckoutResult) => void;
type ErrorHandler = (error: Shift4Error) => void;

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
    openCheckout(options, Shift4Checkout.key, callback);
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
  if (Shift4Checkout.error) Shift4Checkout.error(error);
  else throw error;
}

function openCheckout(
  options: CheckoutOpenOptions,
  key: string | null | undefined,
  callback: SuccessHandler | undefined,
  onClosed?: (succeeded: boolean) => void,
): void {
  if (typeof key !== 'string' || !/^pk_(test|live)_/.test(key))
    return fail('Set Shift4Checkout.key (or data-key) to your public key (pk_…) before opening checkout');
  if (typeof options?.checkoutRequest !== 'string' || options.checkoutRequest === '')
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
  for (const name of ['name', 'description', 'email'] as const) {
    const value = options[name];
    if (typeof value === 'string' && value !== '') params.set(name, value);
  }
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
          Shift4Checkout.error?.(new Shift4Error(message.error));
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

/**
 * The button integration: the script tag (`class="shift4-button"`, inside a form) is replaced in
 * effect by a pay button after it. A successful payment adds the ids to the form as hidden inputs;
 * the form is submitted once the payer closes checkout (after any offers).
 */
function mountButton(script: HTMLScriptElement): void {
  const form = script.closest('form');
  const data = script.dataset;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'shift4-button';
  // `data-checkout-button` is the public integration's label; `data-button-text` this service's own.
  button.textContent = data.checkoutButton || data.buttonText || 'Pay';
  script.after(button);
  button.addEventListener('click', () => {
    // The button's own key; the page's `Shift4Checkout.key` is left as the page set it.
    openCheckout(
      {
        checkoutRequest: data.checkoutRequest ?? '',
        ...(data.name ? { name: data.name } : {}),
        ...(data.description ? { description: data.description } : {}),
        ...(data.email ? { email: data.email } : {}),
        ...(data.locale ? { locale: data.locale } : {}),
      },
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

function addResultInputs(form: HTMLFormElement, result: CheckoutResult): void {
  const ids: Record<string, unknown> = {
    shift4ChargeId: idOf(result.charge),
    shift4SubscriptionId: idOf(result.subscription),
    shift4CustomerId: idOf(result.customer),
  };
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
if (script?.classList.contains('shift4-button')) mountButton(script);
