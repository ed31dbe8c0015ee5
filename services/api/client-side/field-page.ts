import { FIELD_FRAME_MESSAGES } from '../../../packages/client-side/fields/field-messages.ts';
import { translate, type Locale, type MessageKey } from '../../../packages/client-side/i18n/index.ts';
import { html, jsonForScript } from '../../../packages/http/html.ts';

export const FIELD_NAMES = ['number', 'expiry', 'cvc', 'cardholderName'] as const;
export type FieldPageName = (typeof FIELD_NAMES)[number];

interface FieldLook {
  label: MessageKey;
  /** A message, or the placeholder itself when it is the same in every language. */
  placeholder: MessageKey | { text: string };
  autocomplete: string;
  inputmode: 'numeric' | 'text';
  maxlength: number;
}

const LOOKS: Record<FieldPageName, FieldLook> = {
  number: {
    label: 'numberLabel',
    placeholder: { text: '1234 1234 1234 1234' },
    autocomplete: 'cc-number',
    inputmode: 'numeric',
    maxlength: 23,
  },
  expiry: {
    label: 'expiryLabel',
    placeholder: 'expiryPlaceholder',
    autocomplete: 'cc-exp',
    inputmode: 'numeric',
    maxlength: 7,
  },
  cvc: {
    label: 'cvcLabel',
    placeholder: { text: '123' },
    autocomplete: 'cc-csc',
    inputmode: 'numeric',
    maxlength: 4,
  },
  cardholderName: {
    label: 'nameLabel',
    placeholder: 'nameLabel',
    autocomplete: 'cc-name',
    inputmode: 'text',
    maxlength: 255,
  },
};

/**
 * One card field's frame. The input has its own (visually hidden) label, `aria-invalid`, and its
 * message in an `aria-live` region it is described by; the script (`fields.js`) does the rest, with
 * the messages of the payer's language embedded here.
 * Styles are inline and system fonts only: nothing is loaded from elsewhere.
 */
export function fieldPage(field: FieldPageName, locale: Locale = 'en'): string {
  const look = LOOKS[field];
  const label = translate(locale, look.label);
  const placeholder =
    typeof look.placeholder === 'string' ? translate(locale, look.placeholder) : look.placeholder.text;
  const messages = Object.fromEntries(FIELD_FRAME_MESSAGES.map((key) => [key, translate(locale, key)]));
  return html`<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${label}</title>
<style>
*{box-sizing:border-box}
html,body{margin:0;padding:0;background:transparent;font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1e293b}
.row{display:flex;align-items:center;gap:8px;min-height:40px}
input{flex:1;min-width:0;border:0;outline:0;background:transparent;font:inherit;color:inherit;padding:8px 2px;letter-spacing:.02em}
input::placeholder{color:#94a3b8}
body.invalid input{color:#b91c1c}
.brand{flex:none;min-width:44px;height:26px;border-radius:4px;font:700 11px/26px system-ui,sans-serif;text-align:center;letter-spacing:.04em;color:#fff;background:#cbd5e1}
.brand:empty{visibility:hidden}
.brand[data-brand=visa]{background:#1a1f71}
.brand[data-brand=mastercard]{background:#eb001b}
.brand[data-brand=american-express]{background:#2e77bc}
.brand[data-brand=discover]{background:#e65c00}
.brand[data-brand=jcb]{background:#0b7a3e}
.brand[data-brand=diners-club]{background:#004a97}
.brand[data-brand=maestro]{background:#6c6bbd}
.message{margin:0;font-size:13px;color:#b91c1c;min-height:0}
.message:empty{display:none}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
</style>
</head><body>
<label class="visually-hidden" for="input">${label}</label>
<div class="row">
<input id="input" name="${field}" type="text" inputmode="${look.inputmode}" autocomplete="${look.autocomplete}"
 placeholder="${placeholder}" maxlength="${look.maxlength}" spellcheck="false" autocorrect="off" aria-invalid="false">
${field === 'number' ? html`<span id="brand" class="brand" role="img" aria-label=""></span>` : html`<span id="brand" hidden></span>`}
</div>
<p id="message" class="message" aria-live="polite"></p>
<script type="application/json" id="field-messages">${jsonForScript(messages)}</script>
<script src="/js/fields/fields.js"></script>
</body></html>`.markup;
}
