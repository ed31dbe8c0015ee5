import type { FieldToField, FieldToPage, PageToField, TokenExtra } from '../messages.ts';
import { EXTRA_FIELDS, fieldChannelName } from '../messages.ts';
import {
  brandOf,
  checkCardholderName,
  checkCvc,
  checkExpiry,
  checkNumber,
  cvcLengthOf,
  digitsOf,
  errorToShow,
  formatExpiry,
  formatNumber,
  parseExpiry,
  type CardBrand,
  type FieldCheck,
  type FieldName,
} from './card-rules.ts';
import type { CardFieldError, FieldFrameMessage, FieldFrameMessages } from './field-messages.ts';

/**
 * One card field in its frame (`/js/fields/field.html?field=…&origin=…&group=…&key=…`). The value
 * stays in this frame and its siblings (same origin, one BroadcastChannel per group); the page only
 * hears states and the created token. The number frame creates the token: it collects the other
 * fields' values from its siblings and posts them to /tokens with the public key.
 */

const params = new URLSearchParams(location.search);
const field = params.get('field') as FieldName;
const pageOrigin = params.get('origin') ?? '';
const group = params.get('group') ?? '';
const publicKey = params.get('key') ?? '';

const input = document.getElementById('input') as HTMLInputElement;
const message = document.getElementById('message') as HTMLElement;
const brandIcon = document.getElementById('brand') as HTMLElement;
/** The payer's language's messages, rendered into the page by the service. */
const messages = JSON.parse(document.getElementById('field-messages')?.textContent ?? '{}') as FieldFrameMessages;
const say = (key: FieldFrameMessage): string => messages[key] ?? key;
const channel = new BroadcastChannel(fieldChannelName(group));

let touched = false;
let brand: CardBrand | null = null;
/** The cvc frame learns the brand's code length from the number frame. */
let cvcLength = cvcLengthOf(null);
let deleting = false;

function toPage(message: FieldToPage): void {
  // Only the page that framed us, named when it did, may hear from us.
  window.parent.postMessage(message, pageOrigin);
}

function check(): FieldCheck {
  switch (field) {
    case 'number':
      return checkNumber(input.value);
    case 'expiry':
      return checkExpiry(input.value, new Date());
    case 'cvc':
      return checkCvc(input.value, cvcLength);
    case 'cardholderName':
      return checkCardholderName(input.value);
  }
}

function render(): void {
  const result = check();
  const errorKey = errorToShow(result, touched);
  const error = errorKey && say(errorKey);
  message.textContent = error ?? '';
  input.setAttribute('aria-invalid', error ? 'true' : 'false');
  document.body.classList.toggle('invalid', Boolean(error));
  document.body.classList.toggle('complete', result.complete && !error);
  if (field === 'number') {
    brand = brandOf(input.value);
    brandIcon.dataset.brand = brand?.id ?? 'unknown';
    brandIcon.textContent = brand ? brandLabel(brand) : '';
    brandIcon.setAttribute('aria-label', brand ? brand.name : '');
    channel.postMessage({
      type: 'brand',
      brand: brand?.name ?? null,
      cvcLength: cvcLengthOf(brand),
      cvcName: brand?.cvcName ?? 'CVC',
    } satisfies FieldToField);
  }
  toPage({
    source: 'shift4-field',
    type: 'change',
    state: {
      field,
      empty: result.empty,
      complete: result.complete,
      valid: result.complete && !result.error,
      error,
      brand: field === 'number' ? (brand?.name ?? null) : null,
    },
  });
  reportHeight();
}

/** Short text of the brand icon (drawn by CSS, no images from elsewhere). */
function brandLabel(brand: CardBrand): string {
  const labels: Record<string, string> = {
    visa: 'VISA',
    mastercard: 'MC',
    'american-express': 'AMEX',
    discover: 'DISC',
    jcb: 'JCB',
    'diners-club': 'DC',
    maestro: 'MAES',
    unionpay: 'UP',
  };
  return labels[brand.id] ?? brand.name.slice(0, 4).toUpperCase();
}

/**
 * The content's own height: the document's scroll height is at least the frame's, so a frame that
 * grew for a message would never shrink back once the message is gone.
 */
function reportHeight(): void {
  toPage({ source: 'shift4-field', type: 'resize', field, height: document.body.getBoundingClientRect().height });
}

function reformat(): void {
  const before = input.value;
  const caretAtEnd = input.selectionStart === before.length;
  let after = before;
  if (field === 'number') after = formatNumber(before);
  else if (field === 'expiry') after = formatExpiry(before, deleting);
  else if (field === 'cvc') after = digitsOf(before).slice(0, 4);
  if (after !== before) {
    input.value = after;
    if (caretAtEnd) input.setSelectionRange(after.length, after.length);
  }
}

input.addEventListener('beforeinput', (event) => {
  deleting = event.inputType.startsWith('delete');
});
input.addEventListener('input', () => {
  reformat();
  render();
});
input.addEventListener('keydown', (event) => {
  // Escape means the same as outside the frame (a dialog around the fields closes).
  if (event.key === 'Escape') toPage({ source: 'shift4-field', type: 'escape', field });
  // Enter submits the page's form, as it would from an input of the page itself.
  if (event.key === 'Enter' && !event.isComposing) {
    event.preventDefault();
    toPage({ source: 'shift4-field', type: 'enter', field });
  }
});
input.addEventListener('blur', () => {
  touched = true;
  render();
});

channel.addEventListener('message', (event: MessageEvent<FieldToField>) => {
  const data = event.data;
  if (data.type === 'brand' && field === 'cvc') {
    cvcLength = data.cvcLength;
    input.maxLength = data.cvcLength;
    input.placeholder = data.cvcLength === 4 ? '1234' : '123';
    if (input.value) render();
  } else if (data.type === 'collect' && field !== 'number') {
    touched = true;
    render();
    channel.postMessage({
      type: 'value',
      requestId: data.requestId,
      field,
      value: input.value,
      error: errorToShow(check(), true),
    } satisfies FieldToField);
  } else if (data.type === 'clear') {
    clear();
  }
});

function clear(): void {
  input.value = '';
  touched = false;
  render();
}

window.addEventListener('message', (event: MessageEvent<PageToField>) => {
  if (event.origin !== pageOrigin || event.source !== window.parent) return;
  const data = event.data;
  if (typeof data !== 'object' || data === null || data.target !== 'shift4-field') return;
  if (data.type === 'focus') input.focus();
  else if (data.type === 'clear') {
    clear();
    if (field === 'number') channel.postMessage({ type: 'clear' } satisfies FieldToField);
  } else if (data.type === 'create-token' && field === 'number') {
    void createToken(data.requestId, data.fields, data.extra).then(
      (token) => toPage({ source: 'shift4-field', type: 'token', requestId: data.requestId, token }),
      (error: { type: string; code?: string; message: string }) =>
        toPage({
          source: 'shift4-field',
          type: 'token-error',
          requestId: data.requestId,
          error: { type: error.type, ...(error.code ? { code: error.code } : {}), message: error.message },
        }),
    );
  }
});

/**
 * How long the number's frame waits for the group's other frames to send their values. Generous:
 * on a slow phone (or a starved browser) frames can take seconds to answer, and giving up means
 * the payer sees an error for a form that was filled in correctly.
 */
const COLLECT_TIMEOUT_MS = 10_000;

/** Gathers the group's values, checks them, and creates the token with the public key. */
async function createToken(requestId: string, fields: FieldName[], extra: TokenExtra): Promise<unknown> {
  touched = true;
  render();
  const others = fields.filter((name) => name !== 'number');
  const values = new Map<FieldName, { value: string; error: CardFieldError | null }>();
  values.set('number', { value: input.value, error: errorToShow(check(), true) });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      channel.removeEventListener('message', onValue);
      reject({ type: 'invalid_request', message: say('fieldsNotAnswering') });
    }, COLLECT_TIMEOUT_MS);
    const onValue = (event: MessageEvent<FieldToField>) => {
      const data = event.data;
      if (data.type !== 'value' || data.requestId !== requestId) return;
      values.set(data.field, { value: data.value, error: data.error });
      if (others.every((name) => values.has(name))) {
        clearTimeout(timer);
        channel.removeEventListener('message', onValue);
        resolve();
      }
    };
    channel.addEventListener('message', onValue);
    if (others.length === 0) {
      clearTimeout(timer);
      resolve();
    } else channel.postMessage({ type: 'collect', requestId } satisfies FieldToField);
  });

  const invalid = (['number', 'expiry', 'cvc'] as const).find((name) => values.get(name)?.error);
  if (invalid) {
    const codes = { number: 'invalid_number', expiry: 'invalid_expiry', cvc: 'invalid_cvc' } as const;
    throw { type: 'card_error', code: codes[invalid], message: say(values.get(invalid)!.error!) };
  }
  const expiry = parseExpiry(values.get('expiry')?.value ?? '');
  const body: Record<string, string> = {
    number: digitsOf(input.value),
    expMonth: expiry ? String(expiry.month).padStart(2, '0') : '',
    expYear: expiry ? String(expiry.year) : '',
  };
  const cvc = values.get('cvc')?.value;
  if (cvc) body.cvc = digitsOf(cvc);
  const name = values.get('cardholderName')?.value.trim();
  if (name) body.cardholderName = name;
  for (const key of EXTRA_FIELDS) {
    const value = extra[key];
    if (typeof value === 'string' && value !== '' && !(key === 'cardholderName' && name)) body[key] = value;
  }

  const response = await fetch('/tokens', {
    method: 'POST',
    headers: { authorization: `Basic ${btoa(`${publicKey}:`)}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).catch(() => {
    throw { type: 'gateway_error', message: say('serviceUnreachable') };
  });
  const answer = (await response.json().catch(() => null)) as { error?: unknown } | null;
  if (!response.ok || answer === null) {
    throw (answer?.error as object | undefined) ?? { type: 'gateway_error', message: say('unexpectedAnswer') };
  }
  return answer;
}

input.setAttribute('aria-describedby', 'message');
render();
// The frame's title on the merchant's page (its accessible name) is its label, in the payer's language.
toPage({ source: 'shift4-field', type: 'ready', field, title: document.title });
new ResizeObserver(reportHeight).observe(document.body);
