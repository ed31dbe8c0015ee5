import type { FieldName } from './fields/card-rules.ts';
import type { ChallengeToPage, FieldState, FieldToPage, PageToField, TokenExtra } from './messages.ts';
import { randomKey } from './random-key.ts';
import { callApi, onServiceMessage, openOverlay, serviceOrigin, Shift4Error } from './service.ts';

/**
 * Shift4.js of this service: `Shift4(publicKey)` with `createComponentGroup()`, `automount()`,
 * `createToken()`, `verifyThreeDSecure()` and `handleChargeNextAction()`, as the public Shift4.js
 * offers them (docs/client-side.md). Card fields are frames of the service; this script never sees
 * a card number.
 */

declare const SHIFT4_JS_VERSION: string;

const FIELD_TYPES: readonly FieldName[] = ['number', 'expiry', 'cvc', 'cardholderName'];
/** Until the frame tells its title in the payer's language (its `ready` message). */
const FIELD_TITLES: Record<FieldName, string> = {
  number: 'Card number',
  expiry: 'Expiration date (MM / YY)',
  cvc: 'Security code (CVC)',
  cardholderName: 'Name on card',
};

type ChangeListener = (state: FieldState) => void;

/**
 * Where `automount` puts fields. Inputs are left alone: with SecurionPay's older library the page's
 * own inputs carry `data-securionpay` (`SecurionPay.createCardToken`, `securionpay.ts`).
 */
const PLACEHOLDERS = '[data-shift4], [data-securionpay]:not(input, select, textarea)';

/** One card field: a frame of the service mounted into a placeholder element of the page. */
export class Component {
  readonly frame: HTMLIFrameElement;
  state: FieldState;
  private readonly listeners: ChangeListener[] = [];

  constructor(
    readonly type: FieldName,
    private readonly group: ComponentGroup,
  ) {
    this.state = { field: type, empty: true, complete: false, valid: false, error: null, brand: null };
    this.frame = document.createElement('iframe');
    const url = new URL('/js/fields/field.html', serviceOrigin);
    url.search = new URLSearchParams({
      field: type,
      origin: location.origin,
      group: group.id,
      key: group.publicKey,
      locale: group.locale,
      ...(group.ancestorOrigin ? { ancestor: group.ancestorOrigin } : {}),
    }).toString();
    this.frame.src = url.toString();
    this.frame.title = FIELD_TITLES[type];
    this.frame.setAttribute('allowtransparency', 'true');
    this.frame.style.cssText = 'border:0;width:100%;height:40px;display:block;background:transparent;overflow:hidden';
  }

  /** Puts the field into `target` (an element or a selector); replaces its content. */
  mount(target: string | Element): this {
    const element = typeof target === 'string' ? document.querySelector(target) : target;
    if (!element) throw new Shift4Error({ type: 'invalid_request', message: `No element matches '${target}'` });
    element.replaceChildren(this.frame);
    this.group.add(this);
    return this;
  }

  on(event: 'change', listener: ChangeListener): this {
    if (event === 'change') this.listeners.push(listener);
    return this;
  }

  focus(): void {
    this.post({ target: 'shift4-field', type: 'focus' });
  }

  clear(): void {
    this.post({ target: 'shift4-field', type: 'clear' });
  }

  post(message: PageToField): void {
    this.frame.contentWindow?.postMessage(message, serviceOrigin);
  }

  receive(message: FieldToPage): void {
    if (message.type === 'change') {
      this.state = message.state;
      for (const listener of this.listeners) listener(message.state);
    } else if (message.type === 'resize') {
      this.frame.style.height = `${Math.max(24, Math.ceil(message.height))}px`;
    } else if (message.type === 'ready') {
      this.frame.title = message.title;
    } else if (message.type === 'escape') {
      // Escape typed in the field reaches the page as if the frame were one of its elements.
      this.frame.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    } else if (message.type === 'enter') {
      // Enter submits the form the field is in (its submit handlers and checks run), as in a page's input.
      this.frame.closest('form')?.requestSubmit();
    }
  }
}

/** The fields of one card: they create one token together. */
export class ComponentGroup {
  readonly id = randomKey();
  readonly components = new Map<FieldName, Component>();
  private readonly pending = new Map<string, { resolve(token: unknown): void; reject(error: Shift4Error): void }>();
  private readonly listeners: ChangeListener[] = [];

  /**
   * @param ancestorOrigin the page that frames this page, when this page is itself a frame of the
   *   service (the hosted checkout): the field frames must let both origins frame them.
   */
  constructor(
    readonly publicKey: string,
    readonly ancestorOrigin: string | null = null,
    /** The payer's language for the frames: the page's `locale` option, else the browser's. */
    readonly locale: string = navigator.language,
  ) {
    onServiceMessage<FieldToPage>(
      'shift4-field',
      () => null,
      (message, sender) => this.receive(message, sender),
    );
  }

  /**
   * Mounts a field into every `[data-shift4]` placeholder inside `container` (element or selector),
   * and every `[data-securionpay]` one, as pages written for SecurionPay's library name them.
   */
  automount(container: string | Element = document.body): this {
    const root = typeof container === 'string' ? document.querySelector(container) : container;
    if (!root) throw new Shift4Error({ type: 'invalid_request', message: `No element matches '${container}'` });
    const placeholders = [...(root.matches(PLACEHOLDERS) ? [root] : []), ...root.querySelectorAll(PLACEHOLDERS)];
    for (const placeholder of placeholders) {
      const type = (placeholder.getAttribute('data-shift4') ??
        placeholder.getAttribute('data-securionpay')) as FieldName;
      if (!FIELD_TYPES.includes(type)) continue;
      this.createComponent(type).mount(placeholder);
    }
    return this;
  }

  createComponent(type: FieldName): Component {
    if (!FIELD_TYPES.includes(type))
      throw new Shift4Error({ type: 'invalid_request', message: `Unknown component type '${type}'` });
    return new Component(type, this);
  }

  getComponent(type: FieldName): Component | undefined {
    return this.components.get(type);
  }

  on(event: 'change', listener: ChangeListener): this {
    if (event === 'change') this.listeners.push(listener);
    return this;
  }

  add(component: Component): void {
    this.components.set(component.type, component);
  }

  /** Asks the number field to create the token from the group's fields. */
  createToken(extra: TokenExtra): Promise<unknown> {
    const number = this.components.get('number');
    if (!number)
      return Promise.reject(new Shift4Error({ type: 'invalid_request', message: 'The card number field is missing' }));
    const requestId = randomKey();
    return new Promise((resolve, reject) => {
      this.pending.set(requestId, { resolve, reject });
      number.post({
        target: 'shift4-field',
        type: 'create-token',
        requestId,
        fields: [...this.components.keys()],
        extra,
      });
    });
  }

  /** Two groups on one page hear each other's frames: each listens to the frames it made only. */
  private receive(message: FieldToPage, sender: MessageEventSource | null): void {
    const fromOwnFrame = [...this.components.values()].some((component) => component.frame.contentWindow === sender);
    if (!fromOwnFrame) return;
    if (message.type === 'token' || message.type === 'token-error') {
      const waiting = this.pending.get(message.requestId);
      if (!waiting) return;
      this.pending.delete(message.requestId);
      if (message.type === 'token') waiting.resolve(message.token);
      else waiting.reject(new Shift4Error(message.error));
      return;
    }
    const field = message.type === 'change' ? message.state.field : message.field;
    const component = this.components.get(field);
    if (!component || component.frame.contentWindow !== sender) return;
    component.receive(message);
    if (message.type === 'change') for (const listener of this.listeners) listener(message.state);
  }
}

/**
 * How `verifyThreeDSecure` rejects when the cardholder leaves the challenge, and the dialog's
 * labels, until the challenge page gives them in the payer's language (its `ready` message).
 */
const CHALLENGE_CANCELLED = {
  type: 'card_error',
  code: 'authentication_cancelled',
  message: '3-D Secure authentication was cancelled.',
};
const CHALLENGE_LABELS = { dialog: '3-D Secure authentication', close: 'Cancel authentication' };

interface Token {
  id: string;
  threeDSecureInfo?: { liabilityShift: string; authenticationFlow: string | null };
}

export interface Shift4Instance {
  readonly version: string;
  createComponentGroup(): ComponentGroup;
  createToken(components: ComponentGroup, extra?: TokenExtra): Promise<unknown>;
  verifyThreeDSecure(request: { amount: number; currency: string; card: string }): Promise<unknown>;
  handleChargeNextAction(clientObjectId: string): Promise<unknown>;
  createPaymentRequest(methodData: unknown, details: unknown): WalletPaymentRequest;
}

/** What `createPaymentRequest` gives: a payment sheet this service cannot show. */
export interface WalletPaymentRequest {
  canMakePayment(): Promise<boolean>;
  show(): Promise<never>;
  abort(): Promise<void>;
}

/**
 * Apple Pay and Google Pay sheets (`createPaymentRequest`) need the wallets' merchant
 * registration, which this service does not have: pages that offer them (after asking the
 * browser) are told so instead of failing on a missing function.
 */
const WALLETS_UNAVAILABLE = {
  type: 'invalid_request',
  message: 'Apple Pay and Google Pay are not available with this payment service; pay with a card.',
};

export interface Shift4Options {
  /** Origin of the page framing this one (the hosted checkout's merchant page); see ComponentGroup. */
  ancestorOrigin?: string | null;
  /** Language of the card fields and the 3-D Secure challenge (`de`, `fr-BE`…); the browser's by default. */
  locale?: string;
}

export function createShift4(publicKey: string, options: Shift4Options = {}): Shift4Instance {
  const ancestorOrigin = options.ancestorOrigin ?? null;
  const locale = typeof options.locale === 'string' && options.locale !== '' ? options.locale : navigator.language;
  if (typeof publicKey !== 'string' || !/^pk_(test|live)_/.test(publicKey))
    throw new Shift4Error({ type: 'invalid_request', message: 'Shift4(publicKey) needs a public key (pk_…)' });

  return {
    version: SHIFT4_JS_VERSION,

    createComponentGroup: () => new ComponentGroup(publicKey, ancestorOrigin, locale),

    createToken(components, extra = {}) {
      if (!(components instanceof ComponentGroup))
        return Promise.reject(
          new Shift4Error({ type: 'invalid_request', message: 'createToken needs a component group' }),
        );
      return components.createToken(extra);
    },

    /**
     * 3-D Secure for the token and amount; resolves with the token carrying `threeDSecureInfo`.
     * A challenge opens the issuer's page over the merchant's page until the cardholder answers,
     * or leaves it (close button, Escape): then it rejects with `authentication_cancelled`.
     */
    async verifyThreeDSecure({ amount, currency, card }) {
      const token = await callApi<Token>(publicKey, 'POST', `/tokens/${encodeURIComponent(card)}/three-d-secure`, {
        amount,
        currency,
      });
      const info = token.threeDSecureInfo;
      if (info?.liabilityShift !== 'pending' || info.authenticationFlow !== 'challenge') return token;
      const url = new URL('/three-d-secure/challenge', serviceOrigin);
      url.search = new URLSearchParams({
        token: token.id,
        key: publicKey,
        origin: location.origin,
        locale,
        ...(ancestorOrigin ? { ancestor: ancestorOrigin } : {}),
      }).toString();
      return new Promise((resolve, reject) => {
        const settle = (outcome: () => void) => {
          stop();
          dialog.close();
          outcome();
        };
        let cancelled = CHALLENGE_CANCELLED;
        // The token keeps its open challenge: a charge with it fails authentication_required.
        const cancel = () => settle(() => reject(new Shift4Error(cancelled)));
        const dialog = openOverlay(url, CHALLENGE_LABELS.dialog, {
          onDismiss: cancel,
          closeLabel: CHALLENGE_LABELS.close,
          closeAbove: true,
        });
        const stop = onServiceMessage<ChallengeToPage>(
          'shift4-challenge',
          () => dialog.frame.contentWindow,
          (message) => {
            if (message.type === 'ready') {
              // The challenge page speaks the payer's language: the dialog around it does too.
              dialog.relabel(message.labels.dialog, message.labels.close);
              cancelled = { ...CHALLENGE_CANCELLED, message: message.labels.cancelled };
            } else if (message.type === 'escape') cancel();
            else settle(() => resolve(message.token));
          },
        );
      });
    },

    /**
     * Follows a payment-method charge's next action: opens its redirect page in a popup (a full
     * redirect when popups are blocked) and resolves with the charge once it is no longer pending.
     */
    async handleChargeNextAction(clientObjectId) {
      return handleNextAction(publicKey, clientObjectId, locale);
    },

    /** A wallet's payment sheet: not offered here (said in the console), `show()` rejects. */
    createPaymentRequest() {
      console.warn(`Shift4: createPaymentRequest is not supported here (${WALLETS_UNAVAILABLE.message})`);
      return {
        canMakePayment: () => Promise.resolve(false),
        show: () => Promise.reject(new Shift4Error(WALLETS_UNAVAILABLE)),
        abort: () => Promise.resolve(),
      };
    },
  };
}

interface ClientCharge {
  id: string;
  status: string;
  flow?: { nextAction?: string; redirect?: { redirectUrl?: string } };
}

const POLL_INTERVAL_MS = 1000;

/**
 * The provider's page of this service speaks the payer's language: the library's `locale` (the
 * merchant's option, else the browser's) goes with its address, as it does with the challenge's.
 */
function inPayersLanguage(redirectUrl: string | undefined, locale: string): string | undefined {
  if (redirectUrl === undefined) return undefined;
  const url = new URL(redirectUrl, serviceOrigin);
  if (url.origin !== serviceOrigin || url.searchParams.has('locale')) return redirectUrl;
  url.searchParams.set('locale', locale);
  return url.toString();
}

async function handleNextAction(publicKey: string, clientObjectId: string, locale: string): Promise<ClientCharge> {
  const path = `/client-objects/${encodeURIComponent(clientObjectId)}`;
  let charge = await callApi<ClientCharge>(publicKey, 'GET', path);
  const redirectUrl = inPayersLanguage(charge.flow?.redirect?.redirectUrl, locale);
  let popup: Window | null = null;
  if (charge.status === 'pending' && charge.flow?.nextAction === 'redirect' && redirectUrl) {
    popup = window.open(redirectUrl, 'shift4-next-action', 'popup,width=480,height=680');
    if (!popup) {
      // Popups blocked: the provider's page sends the payer back to the charge's returnUrl instead.
      location.assign(redirectUrl);
      return new Promise<never>(() => {});
    }
  }
  while (charge.status === 'pending') {
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    charge = await callApi<ClientCharge>(publicKey, 'GET', path);
  }
  // The popup ends on the merchant's returnUrl; the page that opened it carries on.
  popup?.close();
  return charge;
}

/**
 * `Shift4(pk)` and `new Shift4(pk)` both give the library's object, as with the public Shift4.js;
 * `Shift4(pk, { locale: 'de' })` chooses the language of the card fields and the challenge.
 */
export function Shift4(publicKey: string, options?: { locale?: unknown }): Shift4Instance {
  return createShift4(publicKey, typeof options?.locale === 'string' ? { locale: options.locale } : {});
}
Shift4.version = SHIFT4_JS_VERSION;

(window as unknown as { Shift4: typeof Shift4 }).Shift4 = Shift4;
