import express, { type Request, type Response, type Router } from 'express';
import type { CommandContext } from '../../packages/commands/command-context.ts';
import { DomainError } from '../../packages/domain/errors.ts';
import type { ProviderOutcome } from '../../packages/domain/charge/payment-method-charge.ts';
import { delayedConfirmationTypes } from '../../packages/domain/payment-method/payment-method-events.ts';
import { newId } from '../../packages/ids/object-id.ts';
import type { Logger } from '../../packages/observability/logger.ts';
import { chargesCollection } from '../../projections/charges-projection.ts';
import { clientObjectsCollection } from '../../projections/client-objects-projection.ts';
import type { ChargeDoc } from '../../projections/views/charge-view.ts';
import type { Config } from '../../packages/config/environment.ts';
import type { EventLog } from '../../packages/eventstore/event-log.ts';
import type { ReadModels } from '../../packages/projection-runtime/read-models.ts';
import type { Commands } from '../commands.ts';
import { formatMoney } from '../../packages/money/money.ts';
import { accountsCollection } from '../../projections/accounts-projection.ts';
import { translate, type Locale, type MessageKey } from '../../packages/client-side/i18n/index.ts';
import { payerLocale } from './client-side/payer-locale.ts';
import { sendPage as sendServicePage } from './client-side/html.ts';
import { html, type HtmlValue, type SafeHtml } from '../../packages/http/html.ts';

/**
 * The payment-method provider's page (docs/payments.md, "The redirect page"). A payment-method
 * charge sends the payer here (`flow.redirect.redirectUrl`); the page shows what is paid and with
 * what, and offers the outcomes a provider could answer. The choice is a plain form POST: the
 * service records it and answers 303 to the merchant's `returnUrl` with `clientObjectId` added, so
 * a test suite completes a redirect without a browser by posting `outcome=authorize` (or `decline`,
 * `processing`) to the redirect URL. No API key: the client object id is the unguessable capability.
 */
export const paymentRedirectPath = (clientObjectId: string): string => `/payment-redirects/${clientObjectId}`;

const CLIENT_OBJECT_ID = /^client_char_[A-Za-z0-9]{1,100}$/;
const OUTCOMES: readonly ProviderOutcome[] = ['authorize', 'decline', 'processing'];

/** How payers know each method (the provider's page, the checkout's buttons). */
export const METHOD_NAMES: Readonly<Record<string, string>> = {
  alipay: 'Alipay',
  apple_pay: 'Apple Pay',
  bancontact: 'Bancontact',
  blik: 'BLIK',
  eps: 'EPS',
  giropay: 'giropay',
  google_pay: 'Google Pay',
  ideal: 'iDEAL',
  klarna: 'Klarna',
  p24: 'Przelewy24',
  paypal: 'PayPal',
  sofort: 'Sofort',
  trustly: 'Trustly',
  wechat_pay: 'WeChat Pay',
};

/** What the page uses of the platform (the charge routes link here, so it cannot depend on the platform itself). */
interface PaymentRedirectServices {
  config: Config;
  events: EventLog;
  readModels: ReadModels;
  commands: Commands;
}

export function paymentRedirectPage(platform: PaymentRedirectServices, logger: Logger): Router {
  const router = express.Router();
  const path = paymentRedirectPath(':clientObjectId');

  async function chargeOf(req: Request): Promise<ChargeDoc | null> {
    const clientObjectId = String(req.params.clientObjectId ?? '');
    if (!CLIENT_OBJECT_ID.test(clientObjectId)) return null;
    const clientObject = await platform.readModels.collection(clientObjectsCollection).get(clientObjectId);
    return clientObject ? platform.readModels.collection(chargesCollection).get(clientObject.chargeId) : null;
  }

  router.get(path, async (req, res) => {
    try {
      const charge = await chargeOf(req);
      if (!charge) return sendPage(res, 404, notFoundPage(payerLocale(req)));
      const merchant = await platform.readModels.collection(accountsCollection).get(charge._accountId);
      sendPage(res, 200, chargePage(charge, merchant?.name ?? charge._accountId, payerLocale(req)));
    } catch (error) {
      logger.error('Payment redirect page failed', { error });
      sendPage(res, 500, messagePage(payerLocale(req), 'somethingWentWrongTitle', 'pageNotShown'));
    }
  });

  router.post(path, express.urlencoded({ extended: false, limit: '1kb', parameterLimit: 5 }), async (req, res) => {
    try {
      const charge = await chargeOf(req);
      if (!charge) return sendPage(res, 404, notFoundPage(payerLocale(req)));
      const outcome = (req.body as Record<string, unknown> | undefined)?.outcome;
      if (typeof outcome !== 'string' || !OUTCOMES.includes(outcome as ProviderOutcome)) {
        return sendPage(res, 400, messagePage(payerLocale(req), 'chooseOutcomeTitle', 'chooseOutcome', charge));
      }
      const context: CommandContext = {
        accountId: charge._accountId,
        mode: charge._mode,
        actor: 'system:payment-redirect',
        requestId: newId('req'),
        now: () => new Date(),
      };
      const result = await platform.commands.paymentMethodCharges.chooseOutcome(
        charge.id,
        outcome as ProviderOutcome,
        context,
      );
      if (result.position !== null)
        await platform.readModels.waitFor(result.position, platform.config.readYourWritesTimeoutMs);
      res.redirect(303, returnAddress(charge));
    } catch (error) {
      if (error instanceof DomainError) {
        // Already decided (a second click, a reload, a concurrent choice): once the read side shows
        // the decision, the payer goes back to the merchant's page like the first time.
        await platform.readModels
          .waitFor(await platform.events.headPosition(), platform.config.readYourWritesTimeoutMs)
          .catch(() => undefined);
        const charge = await chargeOf(req).catch(() => null);
        const decided = charge && (charge.status !== 'pending' || charge.flow?.nextAction === 'wait');
        if (decided) return res.redirect(303, returnAddress(charge));
        logger.info('Payment redirect choice refused', { reason: error.message });
        const page = messagePage(payerLocale(req), 'choiceNotPossibleTitle', 'choiceNotPossible', charge ?? undefined);
        return sendPage(res, 400, page);
      }
      logger.error('Payment redirect choice failed', { error });
      sendPage(res, 500, messagePage(payerLocale(req), 'somethingWentWrongTitle', 'choiceNotRecorded'));
    }
  });
  // A body the form parser refuses (too large, malformed): a page, not the API's JSON.
  const refused: express.ErrorRequestHandler = (error: unknown, req, res, _next) => {
    const status = (error as { status?: unknown }).status;
    sendPage(
      res,
      typeof status === 'number' && status >= 400 && status < 500 ? status : 400,
      messagePage(payerLocale(req), 'chooseOutcomeTitle', 'requestUnreadable'),
    );
  };
  router.use(refused);
  return router;
}

/** The merchant's `returnUrl` with `clientObjectId` added as a query parameter. */
export function returnAddress(charge: ChargeDoc): string {
  const url = new URL(charge.flow!.returnUrl);
  url.searchParams.set('clientObjectId', String(charge.clientObjectId));
  return url.toString();
}

function sendPage(res: Response, status: number, html: string): void {
  sendServicePage(res, status, html, {
    // Everything the page needs is inline: no scripts, no outside fonts, styles or images.
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  });
}

function chargePage(charge: ChargeDoc, merchant: string, locale: Locale): string {
  const method = methodName(charge);
  const amount = formatMoney(charge.amount, charge.currency, locale);
  const strong = (text: string) => html`<strong>${text}</strong>`;
  /** The message with its values put in (the message itself escaped as text). */
  const t = (key: MessageKey, values: Record<string, HtmlValue> = {}) =>
    html`${translate(locale, key)
      .split(/(\{\w+\})/)
      .map((part) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1];
        return name !== undefined && name in values ? values[name] : part;
      })}`;
  const pending = charge.status === 'pending';
  const awaitingPayer = pending && charge.flow?.nextAction === 'redirect';
  const type = (charge.paymentMethod as { type?: string } | undefined)?.type ?? '';
  const offersProcessing = delayedConfirmationTypes.has(type as never);
  const what = { amount: strong(amount), merchant: strong(merchant), method: strong(method) };
  const body = awaitingPayer
    ? html`<p>${t('payAmountToWith', what)}${charge.description ? html` (<q>${String(charge.description)}</q>)` : ''}.</p>
    <form method="post">
      <fieldset>
        <legend>${t('howAnswers', { method })}</legend>
        <p id="outcome-help">${t('providerHelp')}</p>
        <button type="submit" name="outcome" value="authorize" aria-describedby="outcome-help" autofocus>${t('authorize')}</button>
        <button type="submit" name="outcome" value="decline" aria-describedby="outcome-help">${t('decline')}</button>${
          offersProcessing
            ? html`
        <button type="submit" name="outcome" value="processing" aria-describedby="outcome-help">${t('processingLater')}</button>`
            : ''
        }
      </fieldset>
    </form>`
    : html`<p role="status">${t(STATUS_MESSAGES[charge.status] ?? 'paymentNotMade', what)}</p>
    <p><a href="${returnAddress(charge)}">${t('returnToMerchant')}</a></p>`;
  return layout(translate(locale, 'methodPayment', { method }), body, locale);
}

/** What the page says of a charge the payer already answered, by its status. */
const STATUS_MESSAGES: Readonly<Record<string, MessageKey>> = {
  pending: 'paymentProcessing',
  successful: 'paymentSucceeded',
  failed: 'paymentNotMade',
};

function notFoundPage(locale: Locale): string {
  return messagePage(locale, 'paymentNotFoundTitle', 'paymentNotFound');
}

/** A page that only tells the payer something (a refusal, a failure), in the payer's language. */
function messagePage(locale: Locale, title: MessageKey, message: MessageKey, charge?: ChargeDoc): string {
  const back = charge
    ? html`\n    <p><a href="${returnAddress(charge)}">${translate(locale, 'returnToMerchant')}</a></p>`
    : '';
  return layout(translate(locale, title), html`<p role="alert">${translate(locale, message)}</p>${back}`, locale);
}

function layout(title: string, body: SafeHtml, locale: Locale): string {
  return html`<!doctype html>
<html lang="${locale}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <style>
    body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #1a1a1a; }
    fieldset { border: 1px solid #767676; border-radius: 0.5rem; padding: 1rem; }
    button { font: inherit; padding: 0.5rem 1rem; margin: 0.25rem 0.5rem 0.25rem 0; border: 2px solid #1a1a1a; border-radius: 0.375rem; background: #fff; cursor: pointer; }
    button[value="authorize"] { background: #1a1a1a; color: #fff; }
    button:focus-visible, a:focus-visible { outline: 3px solid #005fcc; outline-offset: 2px; }
  </style>
</head>
<body>
  <main>
    <h1>${title}</h1>
    ${body}
  </main>
</body>
</html>
`.markup;
}

function methodName(charge: ChargeDoc): string {
  const type = (charge.paymentMethod as { type?: string } | undefined)?.type ?? '';
  return METHOD_NAMES[type] ?? type;
}
