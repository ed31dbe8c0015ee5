import { EXTRA_FIELDS, type ApiErrorBody } from './messages.ts';
import { callApi, Shift4Error } from './service.ts';
import { createShift4, Shift4 } from './shift4.ts';

/**
 * SecurionPay.js of this service (`/js/securionpay.js`, also `/v2/securionpay.js`), for pages
 * written for SecurionPay's library. Both of its generations are one object:
 *
 * - `SecurionPay(publicKey)` is `Shift4(publicKey)`: card fields mounted into `data-securionpay`
 *   placeholders, `createToken`, `verifyThreeDSecure`, as Shift4.js (docs/client-side.md).
 * - The older calls: `SecurionPay.setPublicKey(key)`, `SecurionPay.createCardToken(form, callback)`
 *   with the card in the form's own `data-securionpay` inputs (or in an object of the same names),
 *   and `SecurionPay.verifyThreeDSecure({ amount, currency, card }, callback)`. Each callback gets
 *   the token, or `{ error: { type, code, message } }`. The card number is then on the merchant's
 *   page (it is that library's design) and goes from there to `POST /tokens` with the public key.
 *
 * `Securionpay` (as many pages spell it) is the same object.
 */

/** The card and address inputs of the older library, by their `data-securionpay` names. */
const CARD_FIELDS = ['number', 'expMonth', 'expYear', 'cvc', ...EXTRA_FIELDS] as const;
type CardField = (typeof CARD_FIELDS)[number];

type TokenCallback = (answer: unknown) => void;

let publicKey: string | null = null;

const NO_KEY: ApiErrorBody = {
  type: 'invalid_request',
  message: 'Call SecurionPay.setPublicKey with your public key (pk_…) first',
};

/** What the older library's callbacks get for a failure: the API's error envelope. */
const asErrorAnswer = (error: unknown): { error: ApiErrorBody } => ({
  error:
    error instanceof Shift4Error
      ? { type: error.type, message: error.message, ...(error.code ? { code: error.code } : {}) }
      : { type: 'api_error', message: 'Something went wrong. Please try again.' },
});

/**
 * The card of `createCardToken`: a form (an element, a selector, or a jQuery object) whose inputs
 * name their part with `data-securionpay`, or an object with those names as keys.
 */
function cardOf(source: unknown): Partial<Record<CardField, string>> {
  const element = elementOf(source);
  const values: Partial<Record<CardField, string>> = {};
  if (element) {
    for (const input of element.querySelectorAll<HTMLInputElement | HTMLSelectElement>('[data-securionpay]')) {
      const name = input.getAttribute('data-securionpay') as CardField;
      if (CARD_FIELDS.includes(name) && 'value' in input) values[name] = input.value;
    }
  } else if (typeof source === 'object' && source !== null) {
    for (const name of CARD_FIELDS) {
      const value = (source as Record<string, unknown>)[name];
      if (typeof value === 'string' || typeof value === 'number') values[name] = String(value);
    }
  }
  const card: Partial<Record<CardField, string>> = {};
  for (const name of CARD_FIELDS) {
    const value = values[name]?.trim();
    if (!value) continue;
    // Number and CVC as the payer may type them: "4242 4242 4242 4242".
    card[name] = name === 'number' || name === 'cvc' ? value.replace(/[\s-]/g, '') : value;
  }
  return card;
}

function elementOf(source: unknown): Element | null {
  if (typeof source === 'string') return document.querySelector(source);
  if (source instanceof Element) return source;
  // A jQuery object (`$('#payment-form')`): its first element.
  const first = (source as { jquery?: unknown; 0?: unknown } | null)?.[0];
  if (typeof source === 'object' && source !== null && 'jquery' in source && first instanceof Element) return first;
  return null;
}

function setPublicKey(key: string): void {
  publicKey = typeof key === 'string' ? key.trim() : null;
}

function createCardToken(form: unknown, callback: TokenCallback): void {
  if (typeof callback !== 'function') throw new TypeError('SecurionPay.createCardToken needs a callback');
  if (!publicKey) {
    setTimeout(() => callback({ error: NO_KEY }));
    return;
  }
  callApi(publicKey, 'POST', '/tokens', cardOf(form)).then(callback, (error: unknown) =>
    callback(asErrorAnswer(error)),
  );
}

function verifyThreeDSecure(
  request: { amount: number; currency: string; card: string },
  callback: TokenCallback,
): void {
  if (typeof callback !== 'function') throw new TypeError('SecurionPay.verifyThreeDSecure needs a callback');
  if (!publicKey) {
    setTimeout(() => callback({ error: NO_KEY }));
    return;
  }
  let verifying: Promise<unknown>;
  try {
    verifying = createShift4(publicKey).verifyThreeDSecure(request);
  } catch (error) {
    verifying = Promise.reject(error);
  }
  verifying.then(callback, (error: unknown) => callback(asErrorAnswer(error)));
}

/** `SecurionPay(pk)` is Shift4.js; the older library's calls hang on the same function. */
const SecurionPay = Object.assign((key: string, options?: { locale?: unknown }) => Shift4(key, options), {
  version: Shift4.version,
  setPublicKey,
  createCardToken,
  verifyThreeDSecure,
});

const global = window as unknown as { SecurionPay: typeof SecurionPay; Securionpay: typeof SecurionPay };
global.SecurionPay = SecurionPay;
global.Securionpay = SecurionPay;
