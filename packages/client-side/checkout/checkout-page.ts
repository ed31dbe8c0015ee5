import type { CheckoutPageInput } from '../../checkout/checkout-view.ts';
import type { ApiErrorBody, CheckoutResult } from '../messages.ts';
import { randomKey } from '../random-key.ts';
import { callApi, Shift4Error } from '../service.ts';
import { createShift4, type ComponentGroup } from '../shift4.ts';
import { formatMoney } from '../../money/money.ts';
import { fill } from '../i18n/fill.ts';
import { AUTHENTICATION_MESSAGES, CARD_ERROR_MESSAGES, type Translate, payerMessage } from './payer-messages.ts';
import { addressForm, cardAddressOf, shippingOf } from './checkout-address.ts';
import { byId, onClick } from './checkout-dom.ts';
import type { Card } from './remembered-cards.ts';
import {
  closeOnRequest,
  originParameter,
  reportChallenge,
  reportHeight,
  reportLabels,
  toPage,
} from './merchant-page.ts';
import { customAmount } from './custom-amount.ts';
import { offers } from './checkout-offers.ts';
import { rememberedCards } from './remembered-cards.ts';

/**
 * The hosted checkout page's script (`/js/checkout/checkout-page.js`): the page is rendered by the
 * service (`services/api/checkout/checkout-document.ts`) with its view as JSON; this script mounts the
 * card fields (frames of the service, nested in this frame), checks the email and amount, pays
 * (token, 3-D Secure, `POST /checkout/pay`), or pays with a remembered card, shows the receipt and
 * the offers, and tells the merchant's page (only its origin) the outcome.
 */

interface Token extends Card {
  id: string;
}
interface PayAnswer {
  charge?: { id: string; amount: number; currency: string; card?: Card };
  subscription?: { id: string };
  customer: { id: string; email?: string | null };
  session: string;
}

/** Error types of a payment that may not have been made or answered: it is sent again as it was. */
const UNANSWERED = ['gateway_error', 'api_error', 'rate_limit_error'];

/** A new payment attempt's Idempotency-Key: 128 random bits. */
const paymentKey = (): string => `checkout_${randomKey(16)}`;

const viewElement = byId('checkout-view');
if (viewElement) startCheckout(JSON.parse(viewElement.textContent ?? '{}') as CheckoutPageInput);
else reportError();

/**
 * The error page: the payer reads a plain sentence; the details go to the merchant's page (its
 * `Shift4Checkout.error`) and the console, for the merchant's developers.
 */
function reportError(): void {
  const origin = originParameter();
  reportLabels(origin);
  closeOnRequest(origin);
  reportHeight(origin);
  const details = byId('checkout-error-details');
  const error = details
    ? (JSON.parse(details.textContent ?? '{}') as ApiErrorBody)
    : { type: 'invalid_request', message: 'Checkout could not be opened.' };
  console.error(`Checkout could not be opened: ${error.message}`);
  toPage({ source: 'shift4-checkout', type: 'error', error }, origin);
  byId('done')?.focus();
}

function startCheckout(input: CheckoutPageInput): void {
  const { view, locale } = input;
  const origin = input.ancestorOrigin;
  const main = byId('checkout')!;
  const currency = main.dataset.currency ?? 'EUR';
  const format = (amount: number, code = currency) => formatMoney(amount, code, locale);
  const t: Translate = (key, values) => fill(input.messages[key], values, locale);

  const shift4 = createShift4(view.publicKey, { ancestorOrigin: origin, locale });
  const group: ComponentGroup = shift4.createComponentGroup().automount('#card');
  const form = byId<HTMLFormElement>('pay-form')!;
  const email = byId<HTMLInputElement>('email')!;
  const payButton = byId<HTMLButtonElement>('pay')!;
  const formError = byId('form-error')!;
  const payStatus = byId('pay-status')!;
  const cardError = byId('card-error')!;

  reportLabels(origin);
  closeOnRequest(origin);
  reportHeight(origin);
  reportChallenge(origin);

  // When the dialog gives this frame the focus, the payer starts at the first thing to fill in.
  window.addEventListener(
    'focus',
    () => {
      if (document.activeElement !== document.body) return;
      const firstAmount = document.querySelector<HTMLElement>('.amount-option, #custom-amount');
      if (firstAmount) firstAmount.focus();
      else if (email.value === '') email.focus();
      else group.getComponent('number')?.focus();
    },
    { once: true },
  );

  // The visible labels above the field frames focus their field, as a <label> would.
  for (const field of ['number', 'expiry', 'cvc'] as const)
    byId(`${field}-label`)?.addEventListener('click', () => group.getComponent(field)?.focus());
  group.on('change', (state) => {
    const box = document.querySelector(`[data-shift4="${state.field}"]`);
    box?.classList.toggle('invalid', Boolean(state.error));
    if (state.error === null) cardError.textContent = '';
  });

  const billing = addressForm('billing', t);
  const shipping = addressForm('shipping', t);

  const amount = customAmount(view, format, t, (label) => {
    payButton.textContent = label;
  });
  const savedCard = view.rememberedCards
    ? rememberedCards(view, email, t, () => group.getComponent('number')?.focus())
    : null;

  function showError(element: HTMLElement | null, input: HTMLElement | null, message: string): void {
    if (!element) return;
    element.textContent = message;
    input?.setAttribute('aria-invalid', message ? 'true' : 'false');
  }

  function checkEmail(): boolean {
    const value = email.value.trim();
    const message =
      value === ''
        ? view.customer
          ? ''
          : t('enterEmail')
        : /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
          ? ''
          : t('enterValidEmail');
    showError(byId('email-error'), email, message);
    return message === '';
  }
  email.addEventListener('blur', () => {
    if (email.value.trim() !== '') checkEmail();
  });
  email.addEventListener('input', () => {
    if (email.getAttribute('aria-invalid') === 'true') checkEmail();
  });

  /** The amount paid now, for 3-D Secure and the receipt. */
  function amountToPay(): number | null {
    if (view.charge) return view.charge.amount;
    if (view.subscription) return view.subscription.amount;
    return amount.value();
  }

  /**
   * Shows an API error next to what it is about, in the payer's language; the first such place
   * gets the focus. The service's own words, written for developers, go to the console.
   */
  function showApiError(error: Shift4Error): void {
    const param = error.param ?? '';
    if (!(error.type === 'card_error' && error.code === 'authentication_cancelled'))
      console.error(`Checkout payment refused: ${error.type}${error.code ? ` (${error.code})` : ''}: ${error.message}`);
    if (param === 'email') {
      showError(byId('email-error'), email, t('enterValidEmail'));
      email.focus();
    } else if (param === 'amount' && byId('amount-error')) {
      // The amount the service refused is said as the field says it, else in general words.
      if (amount.check()) amount.showError(payerMessage(error, t));
    } else if (param === 'rememberedCard' && savedCard) {
      // The confirmed card can no longer pay (used, expired or deleted): back to the card fields.
      savedCard.forget();
      formError.textContent = t('savedCardUnusable');
    } else if (error.type === 'card_error' && error.code !== undefined && error.code in AUTHENTICATION_MESSAGES) {
      // Nothing was paid: the payer may answer a new challenge, or change the card.
      formError.textContent = t(AUTHENTICATION_MESSAGES[error.code]!);
    } else if (
      error.type === 'card_error' &&
      ['invalid_number', 'invalid_expiry', 'invalid_cvc'].includes(error.code ?? '')
    ) {
      // The payer is taken to the field; a message the field shows itself is not repeated below.
      const field = { invalid_number: 'number', invalid_expiry: 'expiry', invalid_cvc: 'cvc' } as const;
      const component = group.getComponent(field[error.code as keyof typeof field]);
      component?.focus();
      const message = component?.state.error ?? t(CARD_ERROR_MESSAGES[error.code!]!);
      if (component?.state.error !== message) cardError.textContent = message;
    } else {
      formError.textContent = payerMessage(error, t);
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void pay();
  });

  let paying = false;

  /**
   * The card payment sent last that got no answer (the service could not be reached, or failed):
   * paying again with the same form sends it again as it was, same Idempotency-Key and token, so
   * that the service makes it once and finishes what a crash cut short instead of charging twice.
   */
  let unanswered: { form: string; key: string; body: Record<string, unknown>; token: Token | null } | null = null;

  /** Checks the email and amount fields; on a mistake, focuses the first field at fault. */
  function formReady(): boolean {
    const emailValid = checkEmail();
    const amountValid = amount.check();
    const shippingInvalid = shipping?.check() ?? null;
    const billingInvalid = billing?.check() ?? null;
    const first = !emailValid ? email : !amountValid ? amount.focusTarget() : (shippingInvalid ?? billingInvalid);
    first?.focus();
    return emailValid && amountValid && shippingInvalid === null && billingInvalid === null;
  }

  /** A failure as the page shows it: the service's own error, or a general one. */
  function asShift4Error(error: unknown): Shift4Error {
    if (error instanceof Shift4Error) return error;
    // Not the service's answer but a failure of the page itself: its stack is what a developer needs.
    console.error('Checkout failed:', error);
    return new Shift4Error({ type: 'api_error', message: error instanceof Error ? error.message : String(error) });
  }

  /** What every payment of this checkout sends, whatever pays it. */
  function payBody(total: number | null): Record<string, unknown> {
    return {
      checkoutRequest: view.checkoutRequest,
      ...(email.value.trim() ? { email: email.value.trim() } : {}),
      ...(view.customCharge && total !== null ? { amount: total } : {}),
      ...(shipping ? { shipping: shippingOf(shipping.value()) } : {}),
    };
  }

  async function pay(): Promise<void> {
    if (paying) return;
    formError.textContent = '';
    cardError.textContent = '';
    if (!formReady()) return;
    const total = amountToPay();
    paying = true;
    payButton.disabled = true;
    payButton.setAttribute('aria-busy', 'true');
    const labelBefore = payButton.textContent;
    payButton.textContent = t('paying');
    try {
      const remembered = savedCard?.current();
      const rememberMe = byId<HTMLInputElement>('remember-me');
      const form = JSON.stringify([payBody(total), remembered?.rememberedCard, rememberMe?.checked]);
      let attempt = unanswered?.form === form ? unanswered : null;
      if (!attempt) {
        let token: Token | null = null;
        if (!remembered) {
          token = (await shift4.createToken(group, billing ? cardAddressOf(billing.value()) : {})) as Token;
          if (view.threeDSecure.enable && total !== null)
            token = (await shift4.verifyThreeDSecure({ amount: total, currency, card: token.id })) as Token;
        }
        const body = {
          ...payBody(total),
          ...(remembered ? { rememberedCard: remembered.rememberedCard } : { token: token!.id }),
          ...(rememberMe && !remembered ? { rememberMe: rememberMe.checked } : {}),
        };
        attempt = { form, key: paymentKey(), body, token };
      }
      unanswered = attempt;
      const answer = await callApi<PayAnswer>(view.publicKey, 'POST', '/checkout/pay', attempt.body, {
        'idempotency-key': attempt.key,
      });
      unanswered = null;
      succeeded(answer, remembered?.card ?? attempt.token);
    } catch (error) {
      const shown = asShift4Error(error);
      // An answered refusal ends the attempt: the next one is a new payment.
      if (!UNANSWERED.includes(shown.type)) unanswered = null;
      showApiError(shown);
      payButton.textContent = labelBefore;
    } finally {
      paying = false;
      payButton.disabled = false;
      payButton.removeAttribute('aria-busy');
    }
  }

  /**
   * A payment method: the charge waits for the payer at the provider's page (a popup, followed by
   * Shift4.js), then the page asks the service for the decided charge.
   */
  async function payWithMethod(button: HTMLButtonElement): Promise<void> {
    if (paying) return;
    formError.textContent = '';
    if (!formReady()) return;
    const name = button.dataset.methodName ?? '';
    // Opened now, while the click counts as the payer's: a popup opened after the call would be
    // blocked. Shift4.js then sends this named window to the provider's page.
    const popup = window.open('', 'shift4-next-action', 'popup,width=480,height=680');
    paying = true;
    const buttons = [payButton, ...methodButtons];
    for (const each of buttons) each.disabled = true;
    payStatus.textContent = t('waitingFor', { method: name });
    try {
      const started = await callApi<PayAnswer & { charge: { clientObjectId: string } }>(
        view.publicKey,
        'POST',
        '/checkout/pay',
        { ...payBody(amountToPay()), paymentMethod: button.dataset.method, locale },
      );
      await shift4.handleChargeNextAction(started.charge.clientObjectId);
      const decided = await callApi<Omit<PayAnswer, 'session'>>(view.publicKey, 'POST', '/checkout/payment-status', {
        checkoutRequest: view.checkoutRequest,
        session: started.session,
      });
      const charge = decided.charge as (PayAnswer['charge'] & { status?: string; failureMessage?: string }) | undefined;
      if (charge?.status === 'successful') {
        succeeded({ ...decided, session: started.session }, null, name);
        return;
      }
      if (charge?.failureMessage) console.error(`The payment with ${name} failed: ${charge.failureMessage}`);
      formError.textContent = t('methodNotCompleted', { method: name });
    } catch (error) {
      popup?.close();
      showApiError(asShift4Error(error));
    } finally {
      paying = false;
      payStatus.textContent = '';
      for (const each of buttons) each.disabled = false;
    }
  }
  const methodButtons = [...document.querySelectorAll<HTMLButtonElement>('.method')];
  for (const button of methodButtons) onClick(button, () => payWithMethod(button));

  function succeeded(answer: PayAnswer, card: Card | null, method?: string): void {
    const result: CheckoutResult = {
      ...(answer.charge ? { charge: answer.charge } : {}),
      ...(answer.subscription ? { subscription: answer.subscription } : {}),
      customer: answer.customer,
    };
    toPage({ source: 'shift4-checkout', type: 'success', result }, origin);
    const paid = answer.charge?.card ?? card;
    const rows: Array<[string, string]> = [];
    if (view.subscription) rows.push([t('receiptPlan'), view.subscription.name]);
    if (answer.charge) rows.push([t('receiptPaid'), format(answer.charge.amount, answer.charge.currency)]);
    if (paid) rows.push([t('card'), `${paid.brand} •••• ${paid.last4}`]);
    if (method) rows.push([t('receiptPaidWith'), method]);
    const receiptEmail = email.value.trim() || answer.customer.email;
    if (receiptEmail) rows.push([t('email'), receiptEmail]);
    rows.push([t('receiptReference'), answer.charge?.id ?? answer.subscription?.id ?? answer.customer.id]);
    const receipt = byId('receipt')!;
    receipt.replaceChildren(
      ...rows.flatMap(([term, value]) => {
        const dt = document.createElement('dt');
        dt.textContent = term;
        const dd = document.createElement('dd');
        dd.textContent = value;
        return [dt, dd];
      }),
    );
    byId('pay-step')!.hidden = true;
    byId('success-step')!.hidden = false;
    byId('success-title')!.focus();
    // Offers are charged to the card that paid: a payment method leaves none to charge.
    if (method) byId('offers')?.remove();
    else offers(view, answer.session, format, t);
  }
}
