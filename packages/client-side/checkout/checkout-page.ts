import type { CheckoutPageInput, CheckoutView } from '../../checkout/checkout-view.ts';
import type { ApiErrorBody, CheckoutResult, CheckoutToPage } from '../messages.ts';
import { callApi, Shift4Error } from '../service.ts';
import { createShift4, type ComponentGroup } from '../shift4.ts';
import { formatMoney, parseMoney } from '../../money/money.ts';
import type { MessageKey } from '../i18n/en.ts';
import { fill } from '../i18n/fill.ts';

/**
 * The hosted checkout page's script (`/js/checkout/checkout-page.js`): the page is rendered by the
 * service (`services/api/checkout/checkout-document.ts`) with its view as JSON; this script mounts the
 * card fields (frames of the service, nested in this frame), checks the email and amount, pays
 * (token, 3-D Secure, `POST /checkout/pay`), or pays with a remembered card, shows the receipt and
 * the offers, and tells the merchant's page (only its origin) the outcome.
 */

interface Card {
  brand: string;
  last4: string;
  expMonth?: number | string;
  expYear?: number | string;
}
interface Token extends Card {
  id: string;
}
interface PayAnswer {
  charge?: { id: string; amount: number; currency: string; card?: Card };
  subscription?: { id: string };
  customer: { id: string; email?: string | null };
  session: string;
}

/** What the payer is told when 3-D Secure did not let the card pay. */
const AUTHENTICATION_MESSAGES: Record<string, MessageKey> = {
  authentication_required: 'authenticationFailed',
  authentication_cancelled: 'authenticationCancelled',
};

/**
 * What the payer is told of a card the service refused, in the payer's language (the API's own
 * message is written for the merchant's developers); a decline not listed is a plain decline.
 */
const CARD_ERROR_MESSAGES: Record<string, MessageKey> = {
  invalid_number: 'numberInvalid',
  invalid_expiry: 'expiryPast',
  invalid_expiry_month: 'expiryMonthInvalid',
  invalid_expiry_year: 'expiryYearInvalid',
  invalid_cvc: 'cvcInvalid',
  incorrect_cvc: 'incorrectCvc',
  expired_card: 'expiredCard',
  insufficient_funds: 'insufficientFunds',
  processing_error: 'processingError',
  expired_token: 'tokenExpired',
};

/** The parts of an address the page asks for (`billingAddress`, `shippingAddress` options). */
type AddressPart = 'name' | 'line1' | 'line2' | 'zip' | 'city' | 'state' | 'country';
type Address = Partial<Record<AddressPart, string>>;
const ADDRESS_PARTS: readonly AddressPart[] = ['name', 'line1', 'line2', 'zip', 'city', 'state', 'country'];

/** Error types of a payment that may not have been made or answered: it is sent again as it was. */
const UNANSWERED = ['gateway_error', 'api_error', 'rate_limit_error'];

/** A new payment attempt's Idempotency-Key: 128 random bits. */
const paymentKey = (): string =>
  `checkout_${Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('')}`;

const byId = <T extends HTMLElement = HTMLElement>(id: string): T | null => document.getElementById(id) as T | null;

/** Click handlers that call the service: their errors are handled inside them. */
const onClick = (element: HTMLElement, handler: () => Promise<void>) =>
  element.addEventListener('click', () => void handler());

/** Messages go to the page that framed checkout, and to its origin only. */
function toPage(message: CheckoutToPage, origin: string | null): void {
  if (origin && window.parent !== window) window.parent.postMessage(message, origin);
}

/** Height the issuer's challenge page needs (it opens over this page, inside this frame). */
const CHALLENGE_HEIGHT = 640;

/** The frame fits its content: the merchant's page sizes the dialog from it. */
function reportHeight(origin: string | null): void {
  const send = () => {
    const challengeOpen = document.querySelector('[data-shift4-overlay]') !== null;
    const content = document.body.getBoundingClientRect().height;
    toPage(
      {
        source: 'shift4-checkout',
        type: 'resize',
        height: challengeOpen ? Math.max(content, CHALLENGE_HEIGHT) : content,
      },
      origin,
    );
  };
  new ResizeObserver(send).observe(document.body);
  // The challenge dialog is fixed over the page and does not change its height: it is watched apart.
  new MutationObserver(send).observe(document.body, { childList: true });
  send();
}

/**
 * The merchant's page hides its close button while a 3-D Secure challenge is open here: the
 * challenge has its own (above the issuer's page), and Escape leaves the challenge, not checkout.
 */
function reportChallenge(origin: string | null): void {
  let open = false;
  new MutationObserver(() => {
    const now = document.querySelector('[data-shift4-overlay]') !== null;
    if (now === open) return;
    open = now;
    toPage({ source: 'shift4-checkout', type: 'challenge', open }, origin);
  }).observe(document.body, { childList: true });
}

/** The merchant's page names the dialog around checkout and its close button in the page's language. */
function reportLabels(origin: string | null): void {
  const { dialogLabel, closeLabel } = document.documentElement.dataset;
  if (dialogLabel && closeLabel)
    toPage({ source: 'shift4-checkout', type: 'ready', labels: { dialog: dialogLabel, close: closeLabel } }, origin);
}

/** Escape and the Done/Close button close checkout, wherever the focus is in this page. */
function closeOnRequest(origin: string | null): void {
  const close = () => toPage({ source: 'shift4-checkout', type: 'close' }, origin);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close();
  });
  byId('done')?.addEventListener('click', close);
}

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

/** `origin=` of this page's address, when it is an origin. */
function originParameter(): string | null {
  const value = new URLSearchParams(location.search).get('origin');
  try {
    return value && new URL(value).origin === value ? value : null;
  } catch {
    return null;
  }
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
  const savedCard = view.rememberMe
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
    return error instanceof Shift4Error
      ? error
      : new Shift4Error({ type: 'api_error', message: error instanceof Error ? error.message : String(error) });
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
        { ...payBody(amountToPay()), paymentMethod: button.dataset.method },
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

/** A message of the payer's language's catalog, its placeholders filled in. */
type Translate = (key: MessageKey, values?: Record<string, string>) => string;

/** A refusal as the payer reads it: a card's in the payer's words, anything else as a general failure. */
function payerMessage(error: Shift4Error, t: Translate): string {
  const code = error.code ?? '';
  if (error.type === 'card_error')
    return t(AUTHENTICATION_MESSAGES[code] ?? CARD_ERROR_MESSAGES[code] ?? 'cardDeclined');
  if (error.type === 'gateway_error') return t('serviceUnreachable');
  return t('somethingWentWrong');
}

/**
 * The billing or shipping address the merchant asked for (rendered by the service only then):
 * its values, and a check that says what is missing next to each field.
 */
function addressForm(kind: 'billing' | 'shipping', t: (key: MessageKey) => string) {
  if (!byId(`${kind}-address`)) return null;
  const inputs = ADDRESS_PARTS.map((part) => byId<HTMLInputElement | HTMLSelectElement>(`${kind}-${part}`)!);
  const show = (input: HTMLInputElement | HTMLSelectElement, message: string) => {
    byId(`${input.id}-error`)!.textContent = message;
    input.setAttribute('aria-invalid', message ? 'true' : 'false');
  };
  for (const input of inputs)
    input.addEventListener('input', () => {
      if (input.getAttribute('aria-invalid') === 'true' && input.value.trim() !== '') show(input, '');
    });
  return {
    value(): Address {
      const address: Address = {};
      ADDRESS_PARTS.forEach((part, index) => {
        const value = inputs[index]!.value.trim();
        if (value) address[part] = value;
      });
      return address;
    },
    /** Marks each required field left empty; answers the first of them, or null when none is. */
    check(): HTMLElement | null {
      let first: HTMLElement | null = null;
      for (const input of inputs) {
        const missing = input.required && input.value.trim() === '';
        show(input, missing ? t('fillIn') : '');
        if (missing) first ??= input;
      }
      return first;
    },
  };
}

/** A billing address as the token records it on the card. */
function cardAddressOf(address: Address): Record<string, string> {
  const names: Record<AddressPart, string> = {
    name: 'cardholderName',
    line1: 'addressLine1',
    line2: 'addressLine2',
    zip: 'addressZip',
    city: 'addressCity',
    state: 'addressState',
    country: 'addressCountry',
  };
  return Object.fromEntries(Object.entries(address).map(([part, value]) => [names[part as AddressPart], value]));
}

/** A shipping address as charges and subscriptions record it. */
function shippingOf({ name, ...address }: Address): { name?: string; address: Omit<Address, 'name'> } {
  return { ...(name ? { name } : {}), address };
}

/** The amount of a `customCharge`: an option button (aria-pressed) or a typed amount within bounds. */
function customAmount(
  view: CheckoutView,
  format: (amount: number) => string,
  t: Translate,
  setPayLabel: (label: string) => void,
) {
  const options = [...document.querySelectorAll<HTMLButtonElement>('.amount-option')];
  const input = byId<HTMLInputElement>('custom-amount');
  const error = byId('amount-error');
  const bounds = view.customCharge?.customAmount ?? null;
  let chosen: number | null = null;

  const showError = (message: string) => {
    if (!error) return;
    error.textContent = message;
    input?.setAttribute('aria-invalid', message ? 'true' : 'false');
  };
  const update = () => setPayLabel(chosen === null ? t('pay') : t('payAmount', { amount: format(chosen) }));

  for (const option of options)
    option.addEventListener('click', () => {
      chosen = Number(option.dataset.amount);
      for (const other of options) other.setAttribute('aria-pressed', String(other === option));
      if (input) input.value = '';
      showError('');
      update();
    });

  /** The typed amount in minor units, or the reason it cannot be paid. */
  const typed = (): { amount: number } | { error: string } | null => {
    const text = input?.value.trim() ?? '';
    if (text === '' || !bounds || !view.customCharge) return null;
    const range = t('enterAmountRange', { min: format(bounds.min), max: format(bounds.max) });
    const minor = parseMoney(text, view.customCharge.currency);
    return minor === null || minor < bounds.min || minor > bounds.max ? { error: range } : { amount: minor };
  };

  input?.addEventListener('input', () => {
    for (const option of options) option.setAttribute('aria-pressed', 'false');
    const result = typed();
    chosen = result && 'amount' in result ? result.amount : null;
    if (!result || 'amount' in result) showError('');
    update();
  });
  input?.addEventListener('blur', () => {
    const result = typed();
    if (result && 'error' in result) showError(result.error);
  });

  return {
    value: () => chosen,
    showError,
    /** Refuses to pay without an amount, or outside the bounds; says why next to the amount. */
    check(): boolean {
      if (!view.customCharge) return true;
      const result = typed();
      if (result && 'error' in result) {
        showError(result.error);
        return false;
      }
      if (chosen === null) {
        showError(t(options.length > 0 ? 'chooseAmount' : 'enterAmount'));
        return false;
      }
      return true;
    },
    focusTarget: (): HTMLElement | null => input ?? options[0] ?? null,
  };
}

/**
 * "Use my saved card": a code is sent to the typed email (in test mode the service answers it and
 * the page shows it), and once confirmed the payment uses the remembered card instead of the fields.
 */
function rememberedCards(view: CheckoutView, email: HTMLInputElement, t: Translate, focusCard: () => void) {
  const offer = byId('saved-card')!;
  const useSaved = byId<HTMLButtonElement>('use-saved-card')!;
  const codeStep = byId('code-step')!;
  const codeSent = byId('code-sent')!;
  const testCode = byId('test-code')!;
  const code = byId<HTMLInputElement>('code')!;
  const confirm = byId<HTMLButtonElement>('confirm-code')!;
  const codeError = byId('code-error')!;
  const using = byId('using-saved-card')!;
  const usingLabel = byId('saved-card-label')!;
  const card = byId('card')!;
  const remember = byId('remember');
  let current: { rememberedCard: string; card: Card } | null = null;

  const showCodeError = (message: string) => {
    codeError.textContent = message;
    code.setAttribute('aria-invalid', message ? 'true' : 'false');
    if (message) code.focus();
  };
  const emailLooksValid = () => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.value.trim());
  const useFields = () => {
    current = null;
    using.hidden = true;
    card.hidden = false;
    if (remember) remember.hidden = false;
    offer.hidden = !emailLooksValid();
  };

  email.addEventListener('input', () => {
    // A confirmed card belongs to the email it was confirmed for.
    if (current) useFields();
    codeStep.hidden = true;
    useSaved.hidden = false;
    offer.hidden = !emailLooksValid();
  });
  offer.hidden = !emailLooksValid();

  onClick(useSaved, async () => {
    useSaved.disabled = true;
    codeError.textContent = '';
    try {
      const answer = await callApi<{ sent: boolean; testCode?: string }>(
        view.publicKey,
        'POST',
        '/checkout/remembered-cards/code',
        { checkoutRequest: view.checkoutRequest, email: email.value.trim() },
      );
      codeSent.textContent = t('codeSent', { email: email.value.trim() });
      testCode.hidden = !answer.testCode;
      testCode.textContent = answer.testCode ? t('testModeCode', { code: answer.testCode }) : '';
      useSaved.hidden = true;
      codeStep.hidden = false;
      code.value = '';
      code.focus();
    } catch (error) {
      codeStep.hidden = false;
      if (error instanceof Error) console.error(`The code was not sent: ${error.message}`);
      showCodeError(t(error instanceof Shift4Error && error.param === 'email' ? 'enterValidEmail' : 'codeNotSent'));
    } finally {
      useSaved.disabled = false;
    }
  });

  code.addEventListener('input', () => {
    code.value = code.value.replace(/\D/g, '').slice(0, 6);
  });
  code.addEventListener('keydown', (event) => {
    // Enter confirms the code rather than paying.
    if (event.key === 'Enter') {
      event.preventDefault();
      confirm.click();
    }
  });

  onClick(confirm, async () => {
    if (!/^\d{6}$/.test(code.value)) {
      showCodeError(t('enterCode'));
      return;
    }
    confirm.disabled = true;
    try {
      const answer = await callApi<{ rememberedCard: string; card: Card }>(
        view.publicKey,
        'POST',
        '/checkout/remembered-cards/confirm',
        { checkoutRequest: view.checkoutRequest, email: email.value.trim(), code: code.value },
      );
      current = answer;
      showCodeError('');
      const { brand, last4, expMonth, expYear } = answer.card;
      const cardName = `${brand} •••• ${last4}`;
      usingLabel.textContent =
        expMonth && expYear
          ? t('savedCardExpires', {
              card: cardName,
              expiry: `${String(expMonth).padStart(2, '0')}/${String(expYear).slice(-2)}`,
            })
          : cardName;
      offer.hidden = true;
      card.hidden = true;
      if (remember) remember.hidden = true;
      using.hidden = false;
      byId('pay')?.focus();
    } catch (error) {
      const wrongCode = error instanceof Shift4Error && error.param === 'code';
      if (!wrongCode && error instanceof Error) console.error(`The code was not confirmed: ${error.message}`);
      showCodeError(wrongCode || !(error instanceof Shift4Error) ? t('wrongCode') : payerMessage(error, t));
    } finally {
      confirm.disabled = false;
    }
  });
  byId('use-other-card')?.addEventListener('click', () => {
    useFields();
    useSaved.hidden = false;
    codeStep.hidden = true;
    // The button just pressed is gone: the payer continues in the card number.
    focusCard();
  });

  return {
    current: () => current,
    forget: () => {
      useFields();
      useSaved.hidden = false;
      codeStep.hidden = true;
    },
  };
}

/** The offers after the payment: each "Buy" charges the payer's card for that offer, once. */
function offers(
  view: CheckoutView,
  session: string,
  format: (amount: number, currency?: string) => string,
  t: Translate,
): void {
  for (const item of document.querySelectorAll<HTMLElement>('.offer')) {
    const offerId = item.dataset.offerId ?? '';
    const button = item.querySelector<HTMLButtonElement>('.buy')!;
    const outcome = item.querySelector<HTMLElement>('.offer-outcome')!;
    onClick(button, async () => {
      button.disabled = true;
      outcome.removeAttribute('data-status');
      outcome.textContent = t('buying');
      try {
        const answer = await callApi<{ charge: { amount: number; currency: string } }>(
          view.publicKey,
          'POST',
          '/checkout/cross-sale-purchases',
          { checkoutRequest: view.checkoutRequest, session, offerId },
        );
        outcome.dataset.status = 'bought';
        outcome.textContent = t('bought', { amount: format(answer.charge.amount, answer.charge.currency) });
        button.remove();
      } catch (error) {
        outcome.dataset.status = 'failed';
        // A decline is the payer's to know; anything else is the offer's or the service's side.
        if (error instanceof Error) console.error(`The offer was not bought: ${error.message}`);
        outcome.textContent =
          error instanceof Shift4Error && error.type === 'card_error' ? payerMessage(error, t) : t('offerUnavailable');
        button.disabled = false;
      }
    });
  }
}
