import { CHALLENGE_SCRIPT_MESSAGES } from '../../../packages/client-side/challenge/challenge-messages.ts';
import { translate, type Locale, type MessageKey } from '../../../packages/client-side/i18n/index.ts';
import { formatMoney as formatAmount } from '../../../packages/money/money.ts';
import { html, jsonForScript } from '../../../packages/http/html.ts';

export interface ChallengeToken {
  brand: string;
  last4: string;
  threeDSecureInfo: { amount: number; currency: string };
}

/**
 * The issuer's challenge for one token (the simulated access control server): what is paid, with
 * which card, a one-time code field and the two answers. In this simulator any 6-digit code
 * completes the authentication; the page says so. Its script's messages, in the payer's language,
 * are embedded in the page.
 */
export function challengePage(token: ChallengeToken, locale: Locale = 'en'): string {
  const { amount, currency } = token.threeDSecureInfo;
  const t = (key: MessageKey) => translate(locale, key);
  const messages = Object.fromEntries(CHALLENGE_SCRIPT_MESSAGES.map((key) => [key, translate(locale, key)]));
  return html`<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t('challengeTitle')}</title>
<style>
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1e293b;background:#fff}
main{max-width:420px;margin:0 auto;padding:24px 20px}
header{display:flex;align-items:center;justify-content:space-between;border-bottom:1px solid #e2e8f0;padding-bottom:12px;margin-bottom:16px}
.issuer{font-weight:700;letter-spacing:.02em}
.secure{font-size:13px;color:#047857;font-weight:600}
h1{font-size:1.25rem;margin:0 0 8px}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 16px;margin:0 0 20px}
dt{color:#64748b}dd{margin:0;font-weight:600}
label{display:block;font-weight:600;margin-bottom:4px}
input{width:100%;font:inherit;font-size:1.25rem;letter-spacing:.3em;padding:10px 12px;border:1px solid #94a3b8;border-radius:6px}
input:focus{outline:3px solid #93c5fd;border-color:#2563eb}
input[aria-invalid=true]{border-color:#b91c1c}
.hint{font-size:14px;color:#475569;margin:6px 0 0}
.error{color:#b91c1c;font-size:14px;margin:4px 0 0;min-height:1.3em}
.actions{display:flex;flex-direction:column;gap:10px;margin-top:20px}
button{font:inherit;font-weight:600;padding:12px;border-radius:6px;border:1px solid transparent;cursor:pointer}
button:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
.complete{background:#1d4ed8;color:#fff}
.fail{background:#fff;color:#b91c1c;border-color:#b91c1c}
button:disabled{opacity:.6;cursor:wait}
#status{margin-top:16px;font-weight:600}
</style>
</head><body><main>
<header><span class="issuer">${t('testIssuerBank')}</span><span class="secure">3-D Secure</span></header>
<h1>${t('confirmPayment')}</h1>
<p>${t('challengeIntro')}</p>
<dl>
<dt>${t('amount')}</dt><dd>${formatAmount(amount, currency, locale)}</dd>
<dt>${t('card')}</dt><dd>${token.brand} •••• ${token.last4}</dd>
</dl>
<form id="challenge" novalidate>
<label for="code">${t('oneTimeCode')}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" aria-describedby="code-hint code-error" aria-invalid="false">
<p id="code-hint" class="hint">${t('testIssuerHint')}</p>
<p id="code-error" class="error" aria-live="polite"></p>
<div class="actions">
<button class="complete" type="submit" name="outcome" value="complete" disabled>${t('completeAuthentication')}</button>
<button class="fail" type="submit" name="outcome" value="fail" formnovalidate disabled>${t('failAuthentication')}</button>
</div>
</form>
<p id="status" role="status"></p>
</main>
<script type="application/json" id="challenge-messages">${jsonForScript(messages)}</script>
<script src="/js/three-d-secure/challenge.js"></script>
</body></html>`.markup;
}
