/**
 * The demo shop's pages. Their scripts are what a merchant writes against Shift4.js: plain
 * JavaScript in the page, nothing but the library loaded from the payments service.
 */
import { html, jsonForScript, trustedHtml, type SafeHtml } from '../../packages/http/html.ts';

export interface PageOptions {
  serviceUrl: string;
  publicKey: string;
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#0f172a;background:#f1f5f9}
main{max-width:460px;margin:32px auto;padding:24px;background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(15,23,42,.08)}
@media (max-width:480px){main{margin:0;border-radius:0;min-height:100vh;padding:20px 16px}}
h1{font-size:1.35rem;margin:0 0 4px}
.price{color:#475569;margin:0 0 20px}
.label{display:block;font-weight:600;font-size:14px;margin:14px 0 4px}
.field{border:1px solid #94a3b8;border-radius:8px;padding:2px 12px;background:#fff}
.field:focus-within{border-color:#2563eb;box-shadow:0 0 0 3px #bfdbfe}
.field.invalid{border-color:#b91c1c}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
button{margin-top:20px;width:100%;font:inherit;font-weight:600;padding:12px;border:0;border-radius:8px;background:#1d4ed8;color:#fff;cursor:pointer}
button:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
button:disabled{opacity:.6;cursor:wait}
#result{margin:16px 0 0;font-weight:600;min-height:1.5em}
#result[data-status=successful]{color:#047857}
#result[data-status=failed],#result[data-status=error]{color:#b91c1c}
.methods{display:grid;gap:8px}
nav{margin-top:20px;font-size:14px}
a{color:#1d4ed8}
`;

function layout(title: string, body: SafeHtml, options: PageOptions, script: string): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>${trustedHtml(STYLE)}</style></head>
<body><main>${body}</main>
<script src="${new URL('/js/shift4.js', options.serviceUrl).toString()}"></script>
<script>
const shift4 = Shift4(${jsonForScript(options.publicKey)});
const result = document.getElementById('result');
function show(status, text) { result.dataset.status = status; result.textContent = text; }
${trustedHtml(script)}
</script></body></html>`.markup;
}

export function cardPaymentPage(options: PageOptions): string {
  return layout(
    'Demo shop: pay by card',
    html`<h1>Demo shop</h1>
<p class="price">Order #1001 · 10.00 EUR</p>
<form id="payment-form" novalidate>
  <span class="label" id="number-label">Card number</span>
  <div class="field" data-shift4="number" aria-labelledby="number-label"></div>
  <div class="row">
    <div><span class="label">Expiration date</span><div class="field" data-shift4="expiry"></div></div>
    <div><span class="label">Security code</span><div class="field" data-shift4="cvc"></div></div>
  </div>
  <span class="label">Name on card</span>
  <div class="field" data-shift4="cardholderName"></div>
  <button type="submit" id="pay">Pay 10.00 EUR</button>
  <p id="result" role="status" aria-live="polite"></p>
</form>
<nav><a href="/payment-method">Pay with a payment method instead</a></nav>`,
    options,
    `
const components = shift4.createComponentGroup().automount('#payment-form');
// The fields report their state (never their value): the shop outlines the invalid ones.
components.on('change', (state) => {
  document.querySelector('[data-shift4="' + state.field + '"]').classList.toggle('invalid', Boolean(state.error));
});
const form = document.getElementById('payment-form');
const pay = document.getElementById('pay');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  pay.disabled = true;
  show('processing', 'Processing…');
  try {
    const token = await shift4.createToken(components);
    // 3-D Secure for the amount charged; a challenge opens the card issuer's page over this one.
    const verified = await shift4.verifyThreeDSecure({ amount: 1000, currency: 'EUR', card: token.id });
    const response = await fetch('/api/card-charges', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tokenId: verified.id }),
    });
    const charge = await response.json();
    result.dataset.chargeId = charge.id || '';
    if (charge.status === 'successful') show('successful', 'Payment successful: ' + charge.id);
    else show('failed', 'Payment failed (' + charge.failureCode + '): ' + charge.failureMessage);
  } catch (error) {
    show('error', error.message);
  } finally {
    pay.disabled = false;
  }
});`,
  );
}

export function paymentMethodPage(options: PageOptions): string {
  return layout(
    'Demo shop: pay with a payment method',
    html`<h1>Demo shop</h1>
<p class="price">Order #1002 · 25.00 EUR</p>
<div class="methods">
  <button type="button" data-type="ideal">Pay with iDEAL</button>
  <button type="button" data-type="paypal">Pay with PayPal</button>
</div>
<p id="result" role="status" aria-live="polite"></p>
<nav><a href="/">Pay by card instead</a></nav>`,
    options,
    `
for (const button of document.querySelectorAll('[data-type]')) {
  button.addEventListener('click', async () => {
    show('processing', 'Waiting for the payment provider…');
    try {
      const response = await fetch('/api/payment-method-charges', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: button.dataset.type }),
      });
      const { clientObjectId, message } = await response.json();
      if (!clientObjectId) throw new Error(message);
      // Opens the provider's page and resolves once the charge is no longer pending.
      const charge = await shift4.handleChargeNextAction(clientObjectId);
      if (charge.status === 'successful') show('successful', 'Payment successful');
      else show('failed', 'Payment failed: ' + (charge.failureMessage || charge.status));
    } catch (error) {
      show('error', error.message);
    }
  });
}`,
  );
}

/** The charge's returnUrl: ends a full-page redirect (popups blocked) with the charge's outcome. */
export function returnPage(options: PageOptions): string {
  return layout(
    'Demo shop: payment',
    html`<h1>Demo shop</h1><p id="result" role="status" aria-live="polite">Checking the payment…</p>
<nav><a href="/">Back to the shop</a></nav>`,
    options,
    `
const clientObjectId = new URLSearchParams(location.search).get('clientObjectId');
// In the popup the shop's page carries on; after a full redirect this page shows the outcome.
if (clientObjectId && !window.opener) {
  shift4.handleChargeNextAction(clientObjectId).then(
    (charge) => show(charge.status === 'successful' ? 'successful' : 'failed', 'Payment ' + charge.status),
    (error) => show('error', error.message),
  );
} else if (window.opener) {
  show('processing', 'Returning to the shop…');
}`,
  );
}

/**
 * The hosted checkout: the shop's server signed the request (`checkoutRequest`); the page opens
 * checkout from its own button, and a second form uses the button integration.
 */
export function checkoutShopPage(options: PageOptions & { checkoutRequest: string }): string {
  const checkoutJs = new URL('/js/checkout.js', options.serviceUrl).toString();
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo shop: hosted checkout</title><style>${trustedHtml(STYLE)}</style></head>
<body><main>
<h1>Demo shop</h1>
<p class="price">Order #1003 · 10.00 EUR</p>
<button type="button" id="open">Pay with checkout</button>
<p id="result" role="status" aria-live="polite"></p>
<form action="/checkout/paid" method="post">
  <p class="price">Or the button integration:</p>
  <script src="${checkoutJs}" class="shift4-button" data-key="${options.publicKey}"
    data-checkout-request="${options.checkoutRequest}" data-name="Demo shop" data-description="Order #1003"></script>
</form>
<nav><a href="/">Pay with the card fields instead</a></nav>
</main>
<script src="${checkoutJs}"></script>
<script>
const result = document.getElementById('result');
function show(status, text) { result.dataset.status = status; result.textContent = text; }
Shift4Checkout.key = ${jsonForScript(options.publicKey)};
Shift4Checkout.success = (paid) => show('successful', 'Payment successful: ' + paid.charge.id);
Shift4Checkout.error = (errorMessage) => show('error', errorMessage);
document.getElementById('open').addEventListener('click', () =>
  Shift4Checkout.open({ checkoutRequest: ${jsonForScript(options.checkoutRequest)}, name: 'Demo shop', description: 'Order #1003' }),
);
</script></body></html>`.markup;
}

/** Where the button integration's form goes: the ids checkout added to it. */
export function checkoutPaidPage(ids: Record<string, unknown>): string {
  const rows = Object.entries(ids)
    .filter(([name]) => name.startsWith('shift4'))
    .map(([name, value]) => html`<li>${name}: ${String(value)}</li>`);
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Demo shop: paid</title><style>${trustedHtml(STYLE)}</style></head>
<body><main><h1>Thank you</h1><ul>${rows}</ul><nav><a href="/checkout">Back to the shop</a></nav></main></body></html>`
    .markup;
}
