import type {
  CheckoutOfferView,
  CheckoutPageInput,
  CheckoutView,
  OfferedPlan,
} from '../../../packages/checkout/checkout-view.ts';
import { formatMoney as formatAmount } from '../../../packages/money/money.ts';
import { html, joinHtml, jsonForScript, trustedHtml, type SafeHtml } from '../../../packages/http/html.ts';
import { translate, type Locale, type MessageKey } from '../../../packages/client-side/i18n/index.ts';
import { METHOD_NAMES } from '../payment-redirect-page.ts';

/**
 * The hosted checkout page (`GET /checkout`), framed by the merchant's page that called
 * `Shift4Checkout.open`. Everything the payer reads is rendered here, escaped; the page's script
 * (`/js/checkout/checkout-page.js`) reads the view from the embedded JSON and does the rest: card
 * fields, amounts, remembered cards, paying, the receipt and the offers. Styles are inline and
 * nothing is loaded from elsewhere (the CSP allows the service's own scripts, images and frames).
 */
export function checkoutPage(input: CheckoutPageInput): string {
  const { view, display, locale, countries } = input;
  const t = (key: MessageKey, values?: Record<string, string | number>) => translate(locale, key, values);
  const money = (amount: number, currency: string) => formatAmount(amount, currency, locale);
  const name = display.name ?? view.merchant.name;
  const email = display.email ?? view.customer?.email ?? '';
  const currency = currencyOf(view);
  return htmlDocument(
    locale,
    name,
    html`<main id="checkout" data-kind="${view.kind}" data-currency="${currency}">
<header class="head">
${display.image ? html`<img id="merchant-image" class="logo" src="${display.image}" alt="" width="64" height="64">` : ''}
<h1 id="merchant-name">${name}</h1>
${display.description ? html`<p class="description">${display.description}</p>` : ''}
${view.mode === 'test' ? html`<p class="test-mode">${t('testMode')}</p>` : ''}
</header>
<section id="pay-step" aria-labelledby="merchant-name">
${purchase(view, locale, t, money)}
<form id="pay-form" novalidate>
<div class="group">
<label for="email">${t('email')}</label>
<input id="email" name="email" type="email" autocomplete="email" inputmode="email" spellcheck="false" value="${email}"${view.customer ? '' : html` required aria-required="true"`} aria-invalid="false" aria-describedby="email-error">
<p id="email-error" class="error" aria-live="polite"></p>
</div>
${display.shippingAddress ? addressFields('shipping', t('shippingAddress'), t, countries) : ''}
${view.rememberedCards ? rememberedCard(t) : ''}
<fieldset id="card" class="group">
<legend class="visually-hidden">${t('card')}</legend>
<span class="label" id="number-label">${t('cardNumber')}</span>
<div class="field" data-shift4="number"></div>
<div class="row">
<div><span class="label" id="expiry-label">${t('expiry')}</span><div class="field" data-shift4="expiry"></div></div>
<div><span class="label" id="cvc-label">${t('securityCode')}</span><div class="field" data-shift4="cvc"></div></div>
</div>
<p id="card-error" class="error" aria-live="polite"></p>
</fieldset>
${display.billingAddress ? addressFields('billing', t('billingAddress'), t, countries) : ''}
${
  view.rememberMe
    ? html`<div class="group remember" id="remember">
<label class="check"><input id="remember-me" name="rememberMe" type="checkbox" aria-describedby="remember-hint"> ${t('rememberMe')}</label>
<p id="remember-hint" class="hint">${t('rememberHint')}</p>
</div>`
    : ''
}
<p id="form-error" class="error form-error" role="alert"></p>
<p id="pay-status" class="pay-status" role="status"></p>
<button id="pay" class="primary" type="submit">${payLabel(view, locale)}</button>
${paymentMethods(view, t)}
${
  view.termsAndConditionsUrl
    ? html`<p class="terms">${t('termsAccept')} <a href="${view.termsAndConditionsUrl}" target="_blank" rel="noopener noreferrer">${t('terms')}</a>.</p>`
    : ''
}
</form>
</section>
<section id="success-step" hidden aria-labelledby="success-title">
<h2 id="success-title" tabindex="-1">${view.kind === 'subscription' ? t('subscriptionStarted') : t('paymentSuccessful')}</h2>
<dl id="receipt" class="receipt"></dl>
${offers(view.crossSaleOffers, locale, t, money)}
<button id="done" class="primary" type="button">${t('done')}</button>
</section>
</main>
<script type="application/json" id="checkout-view">${jsonForScript(input)}</script>`,
  );
}

/**
 * The page shown instead of checkout when the request cannot be served (bad key, tampered
 * request…): the payer reads a plain sentence; the details, written for the merchant's developers,
 * go to the merchant's error handler and the browser's console (the page's script reads them from
 * the embedded JSON).
 */
export function checkoutErrorPage(status: number, error: CheckoutErrorDetails, locale: Locale = 'en'): string {
  const [title, message] = (
    status >= 500 ? (['unavailableTitle', 'unavailable'] as const) : (['linkNotValidTitle', 'linkNotValid'] as const)
  ).map((key) => translate(locale, key));
  return htmlDocument(
    locale,
    title!,
    html`<main id="checkout-error" class="error-page">
<h1>${title!}</h1>
<p id="error-message">${message!}</p>
<button id="done" class="primary" type="button">${translate(locale, 'close')}</button>
</main>
<script type="application/json" id="checkout-error-details">${jsonForScript(error)}</script>`,
  );
}

/** The API's error, as the merchant's `Shift4Checkout.error` receives it. */
export interface CheckoutErrorDetails {
  type: string;
  code?: string;
  message: string;
}

/** The page; its root names the dialog around it and its close button, for `checkout.js` to label them. */
function htmlDocument(locale: Locale, title: string, body: SafeHtml): string {
  const labels = html`data-dialog-label="${translate(locale, 'checkoutTitle')}" data-close-label="${translate(locale, 'closeCheckout')}"`;
  return html`<!doctype html>
<html lang="${locale}" ${labels}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${trustedHtml(STYLE)}</style>
</head><body>
${body}
<script src="/js/checkout/checkout-page.js"></script>
</body></html>`.markup;
}

function currencyOf(view: CheckoutView): string {
  return view.charge?.currency ?? view.subscription?.currency ?? view.customCharge?.currency ?? 'EUR';
}

type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;
type Money = (amount: number, currency: string) => string;

function payLabel(view: CheckoutView, locale: Locale): string {
  if (view.charge)
    return translate(locale, 'payAmount', { amount: formatAmount(view.charge.amount, view.charge.currency, locale) });
  if (view.subscription) return translate(locale, 'subscribeFor', { price: price(view.subscription, locale) });
  return translate(locale, 'pay');
}

/** The catalog's price of each plan interval: `10.00 EUR / month`, `30.00 EUR every 3 months`. */
const PRICE_EVERY = {
  hour: 'everyHour',
  day: 'everyDay',
  week: 'everyWeek',
  month: 'everyMonth',
  year: 'everyYear',
} as const satisfies Record<OfferedPlan['interval'], MessageKey>;

function price(plan: OfferedPlan, locale: Locale): string {
  const amount = formatAmount(plan.amount, plan.currency, locale);
  return translate(locale, PRICE_EVERY[plan.interval], { amount, count: plan.intervalCount });
}

function purchase(view: CheckoutView, locale: Locale, t: Translate, money: Money): SafeHtml {
  if (view.charge)
    return html`<p class="total"><span class="total-label">${t('total')}</span> <span id="total">${money(view.charge.amount, view.charge.currency)}</span></p>`;
  if (view.subscription) {
    const plan = view.subscription;
    return html`<div class="plan">
<p class="plan-name" id="plan-name">${plan.name}</p>
<p class="total"><span id="total">${price(plan, locale)}</span></p>
${plan.trialPeriodDays ? html`<p class="trial" id="trial">${t('trial', { count: plan.trialPeriodDays })}</p>` : ''}
</div>`;
  }
  const custom = view.customCharge!;
  const options = custom.amountOptions.map(
    (amount) =>
      html`<button type="button" class="amount-option" aria-pressed="false" data-amount="${amount}" disabled>${money(amount, custom.currency)}</button>`,
  );
  const bounds = custom.customAmount;
  return html`<fieldset class="amounts group" id="amounts">
<legend>${t('amount')}</legend>
${options.length > 0 && html`<div class="amount-options">${joinHtml(options, '\n')}</div>`}
${
  bounds
    ? html`<label for="custom-amount">${options.length > 0 ? t('otherAmount') : t('amount')} (${custom.currency})</label>
<input id="custom-amount" name="amount" type="text" inputmode="decimal" autocomplete="off" data-min="${bounds.min}" data-max="${bounds.max}" aria-invalid="false" aria-describedby="custom-amount-hint amount-error">
<p id="custom-amount-hint" class="hint">${t('amountRange', { min: money(bounds.min, custom.currency), max: money(bounds.max, custom.currency) })}</p>`
    : ''
}
<p id="amount-error" class="error" aria-live="polite"></p>
</fieldset>`;
}

/** Payment methods offered besides the card: each pays through its provider's page. */
function paymentMethods(view: CheckoutView, t: Translate): SafeHtml {
  if (view.paymentMethodTypes.length === 0 || view.kind === 'subscription') return html``;
  const buttons = view.paymentMethodTypes.map((type) => {
    const name = METHOD_NAMES[type] ?? type;
    return html`<button type="button" class="secondary method" data-method="${type}" data-method-name="${name}">${t('payWith', { method: name })}</button>`;
  });
  return html`<div class="methods" id="payment-methods" role="group" aria-labelledby="methods-title">
<p class="or" id="methods-title">${t('orPayWithout')}</p>
${joinHtml(buttons, '\n')}
</div>`;
}

/**
 * The address the merchant asked for (`billingAddress`, `shippingAddress` options): `billing` goes
 * on the card (the token's address), `shipping` on the charge or subscription. Ids
 * html`<kind>-<part>`, each input described by its own error line.
 */
function addressFields(
  kind: 'billing' | 'shipping',
  legend: string,
  t: Translate,
  countries: CheckoutPageInput['countries'],
): SafeHtml {
  const field = (part: string, label: MessageKey, autocomplete: string, required: boolean) => {
    const id = `${kind}-${part}`;
    return html`<div class="address-part ${part}">
<label for="${id}">${t(label)}</label>
<input id="${id}" type="text" autocomplete="${kind} ${autocomplete}"${required && html` required aria-required="true"`} aria-invalid="false" aria-describedby="${id}-error">
<p id="${id}-error" class="error" aria-live="polite"></p>
</div>`;
  };
  const options = countries.map((country) => html`<option value="${country.code}">${country.name}</option>`);
  return html`<fieldset id="${kind}-address" class="group address" data-address="${kind}">
<legend>${legend}</legend>
${field('name', 'fullName', 'name', true)}
${field('line1', 'addressLine1', 'address-line1', true)}
${field('line2', 'addressLine2', 'address-line2', false)}
<div class="row">
${field('zip', 'postalCode', 'postal-code', true)}
${field('city', 'city', 'address-level2', true)}
</div>
${field('state', 'region', 'address-level1', false)}
<div class="address-part country">
<label for="${kind}-country">${t('country')}</label>
<select id="${kind}-country" autocomplete="${kind} country" required aria-required="true" aria-invalid="false" aria-describedby="${kind}-country-error"><option value="">${t('chooseCountry')}</option>${options}</select>
<p id="${kind}-country-error" class="error" aria-live="polite"></p>
</div>
</fieldset>`;
}

function rememberedCard(t: Translate): SafeHtml {
  return html`<div id="saved-card" class="saved-card" hidden>
<button id="use-saved-card" class="link" type="button">${t('useSavedCard')}</button>
<div id="code-step" hidden>
<p id="code-sent" class="hint" aria-live="polite"></p>
<p id="test-code" class="test-code" hidden></p>
<label for="code">${t('oneTimeCode')}</label>
<div class="code-row">
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="6" aria-invalid="false" aria-describedby="code-error">
<button id="confirm-code" class="secondary" type="button">${t('confirm')}</button>
</div>
<p id="code-error" class="error" aria-live="polite"></p>
</div>
</div>
<div id="using-saved-card" class="using-saved-card group" hidden>
<p><span class="label">${t('card')}</span> <span id="saved-card-label"></span></p>
<button id="use-other-card" class="link" type="button">${t('useAnotherCard')}</button>
</div>`;
}

function offers(list: CheckoutOfferView[], locale: Locale, t: Translate, money: Money): SafeHtml {
  if (list.length === 0) return html``;
  return html`<section id="offers" class="offers" aria-labelledby="offers-title">
<h3 id="offers-title">${t('youMayAlsoLike')}</h3>
<ul>
${joinHtml(
  list.map((item) => offer(item, locale, t, money)),
  '\n',
)}
</ul>
</section>`;
}

/**
 * One offer: a charge's price and "Buy for …", or a subscription's price per interval, its trial
 * and "Subscribe for …" (the price and trial also as data, for what the script writes once bought).
 */
function offer(offer: CheckoutOfferView, locale: Locale, t: Translate, money: Money): SafeHtml {
  const company = [offer.companyName, offer.companyLocation].filter(Boolean).join(', ');
  const titleId = `offer-${offer.id}-title`;
  const plan = offer.subscription;
  const shownPrice = plan ? price(plan, locale) : money(offer.charge!.amount, offer.charge!.currency);
  const buy = plan ? t('subscribeFor', { price: shownPrice }) : t('buyFor', { amount: shownPrice });
  const subscriptionData =
    plan && html` data-kind="subscription" data-price="${shownPrice}" data-trial-days="${plan.trialPeriodDays ?? 0}"`;
  return html`<li class="offer" data-offer-id="${offer.id}"${subscriptionData} aria-labelledby="${titleId}">
${offer.imageUrl && offer.template === 'image_and_text' ? html`<img src="${offer.imageUrl}" alt="" width="247" height="156">` : ''}
<div class="offer-body">
<h4 id="${titleId}">${offer.title}</h4>
${offer.description ? html`<p class="offer-description">${offer.description}</p>` : ''}
<p class="offer-price">${shownPrice}</p>
${plan?.trialPeriodDays ? html`<p class="offer-trial">${t('trial', { count: plan.trialPeriodDays })}</p>` : ''}
${company ? html`<p class="offer-company">${t('offeredBy', { company })}</p>` : ''}
${offer.termsAndConditionsUrl ? html`<p class="offer-terms"><a href="${offer.termsAndConditionsUrl}" target="_blank" rel="noopener noreferrer">${t('terms')}</a></p>` : ''}
<button class="secondary buy" type="button" aria-describedby="${titleId}">${buy}</button>
<p class="offer-outcome" aria-live="polite"></p>
</div>
</li>`;
}

const STYLE = `
*{box-sizing:border-box}
html{background:#fff}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#0f172a;background:#fff}
main{max-width:460px;margin:0 auto;padding:20px 20px 24px}
.head{padding-right:40px;margin-bottom:12px}
h1{font-size:1.3rem;margin:0;line-height:1.3;overflow-wrap:anywhere}
.description{margin:2px 0 0;color:#475569;overflow-wrap:anywhere}
.test-mode{display:inline-block;margin:8px 0 0;padding:0 8px;border-radius:4px;background:#fef3c7;color:#92400e;font-size:13px;font-weight:600}
.total{display:flex;justify-content:space-between;align-items:baseline;gap:12px;margin:0 0 16px;padding:12px 14px;border-radius:8px;background:#f1f5f9;font-weight:700;font-size:1.15rem}
.total-label{font-weight:600;font-size:1rem;color:#475569}
.plan{margin:0 0 16px;padding:12px 14px;border-radius:8px;background:#f1f5f9}
.plan .total{margin:0;padding:0;background:none}
.plan-name{margin:0;font-weight:600}
.trial{margin:4px 0 0;color:#047857;font-size:14px;font-weight:600}
.group{margin:0 0 14px}
fieldset{border:0;padding:0;min-width:0}
legend,label,.label{display:block;font-weight:600;font-size:14px;margin:0 0 4px;padding:0}
fieldset .label{margin-top:8px}
#card>.label:first-of-type{margin-top:0}
input[type=email],input[type=text],select{width:100%;font:inherit;padding:9px 12px;border:1px solid #94a3b8;border-radius:8px;background:#fff;color:inherit}
select:focus{outline:0;border-color:#2563eb;box-shadow:0 0 0 3px #bfdbfe}
select[aria-invalid=true]{border-color:#b91c1c}
.address .address-part{margin:0 0 8px}
.address legend{font-size:15px;margin-bottom:6px}
.logo{display:block;width:64px;height:64px;object-fit:contain;border-radius:8px;margin:0 0 8px}
input:focus{outline:0;border-color:#2563eb;box-shadow:0 0 0 3px #bfdbfe}
input[aria-invalid=true]{border-color:#b91c1c}
.field{border:1px solid #94a3b8;border-radius:8px;padding:0 12px;background:#fff}
.field:focus-within{border-color:#2563eb;box-shadow:0 0 0 3px #bfdbfe}
.field.invalid{border-color:#b91c1c}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.amount-options{display:grid;grid-template-columns:repeat(auto-fill,minmax(92px,1fr));gap:8px;margin:0 0 10px}
.amount-option{font:inherit;font-weight:600;white-space:nowrap;padding:10px 4px;border:1px solid #94a3b8;border-radius:8px;background:#fff;color:#0f172a;cursor:pointer}
.amount-option[aria-pressed=true]{background:#1d4ed8;border-color:#1d4ed8;color:#fff}
.hint{margin:4px 0 0;font-size:13px;color:#475569}
.error{margin:4px 0 0;font-size:14px;color:#b91c1c}
.error:empty{display:none}
.form-error{padding:8px 12px;border-radius:8px;background:#fef2f2;border:1px solid #fecaca}
.check{display:flex;align-items:center;gap:8px;font-size:15px;margin:0}
.check input{width:18px;height:18px;margin:0}
button{font:inherit;cursor:pointer}
button:focus-visible,a:focus-visible,input[type=checkbox]:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
.primary{width:100%;margin-top:6px;font-weight:600;padding:12px;border:0;border-radius:8px;background:#1d4ed8;color:#fff}
.primary:disabled{opacity:.6;cursor:wait}
.secondary{font-weight:600;padding:8px 14px;border:1px solid #1d4ed8;border-radius:8px;background:#fff;color:#1d4ed8}
.secondary:disabled{opacity:.6;cursor:wait}
.link{border:0;background:none;padding:0;color:#1d4ed8;text-decoration:underline;font-size:15px}
.saved-card{margin:-6px 0 14px}
.code-row{display:flex;gap:8px}
.code-row input{flex:1;min-width:0;letter-spacing:.2em}
.test-code{margin:6px 0;padding:6px 10px;border-radius:6px;background:#fef3c7;color:#92400e;font-weight:600;font-size:14px}
.using-saved-card p{margin:0}
#saved-card-label{font-weight:600}
.pay-status{margin:0 0 6px;font-size:14px;color:#475569}
.pay-status:empty{display:none}
.methods{display:grid;gap:8px;margin-top:12px}
.methods .or{margin:0;text-align:center;font-size:13px;color:#475569}
.method{width:100%;padding:10px}
.terms{font-size:13px;color:#475569;text-align:center;margin:10px 0 0}
a{color:#1d4ed8}
#success-title{font-size:1.25rem;color:#047857;margin:4px 0 10px}
#success-title:focus{outline:0}
.receipt{display:grid;grid-template-columns:auto 1fr;gap:4px 16px;margin:0 0 18px;padding:12px 14px;border-radius:8px;background:#f1f5f9}
.receipt dt{color:#475569}.receipt dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.offers h3{font-size:1.05rem;margin:0 0 8px}
.offers ul{list-style:none;margin:0 0 16px;padding:0;display:grid;gap:12px}
.offer{display:flex;gap:12px;align-items:flex-start;border:1px solid #e2e8f0;border-radius:10px;padding:12px 14px}
.offer img{flex:none;display:block;width:112px;height:auto;border-radius:6px}
.offer-body{flex:1;min-width:0}
.offer h4{margin:0;font-size:1rem}
.offer p{margin:4px 0 0}
.offer-description{color:#334155;font-size:15px}
.offer-price{font-weight:700}
.offer-company,.offer-terms,.offer-trial{font-size:13px;color:#475569}
.offer .buy{margin-top:10px}
.offer-outcome{font-weight:600;font-size:14px}
.offer-outcome:empty{display:none}
.offer-outcome[data-status=bought]{color:#047857}
.offer-outcome[data-status=failed]{color:#b91c1c}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.error-page{padding-top:28px}
.error-page h1{color:#b91c1c;margin-bottom:8px}
@media (max-width:400px){main{padding:16px 14px 20px}.row{gap:8px}}
`;
