import { type CheckoutView } from '../../checkout/checkout-view.ts';
import { Shift4Error, callApi } from '../service.ts';
import { type Translate, payerMessage } from './payer-messages.ts';
import { byId, onClick } from './checkout-dom.ts';

/**
 * The offers after the payment: each "Buy" charges the payer's card for that offer, once; a
 * subscription offer's "Subscribe" subscribes the payer with that card, and the receipt lists it.
 */
export function offers(
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
        const answer = await callApi<
          { charge: { amount: number; currency: string } } | { subscription: { id: string } }
        >(view.publicKey, 'POST', '/checkout/cross-sale-purchases', {
          checkoutRequest: view.checkoutRequest,
          session,
          offerId,
        });
        outcome.dataset.status = 'bought';
        if ('subscription' in answer) {
          const price = item.dataset.price ?? '';
          const days = item.dataset.trialDays ?? '0';
          outcome.textContent =
            days === '0' ? t('subscribedOutcome', { price }) : t('subscribedTrialOutcome', { count: days, price });
          const title = item.querySelector('h4')?.textContent ?? '';
          addToReceipt(t('subscribedTo'), `${title}, ${price}`);
        } else outcome.textContent = t('bought', { amount: format(answer.charge.amount, answer.charge.currency) });
        button.remove();
      } catch (error) {
        outcome.dataset.status = 'failed';
        // A decline is the payer's to know; anything else is the offer's or the service's side.
        if (error instanceof Error) console.error(`The offer was not bought: ${error.message}`);
        outcome.textContent = offerRefusal(error, t);
        button.disabled = false;
      }
    });
  }
}

/**
 * Why an offer was not bought, in the payer's words. A card the issuer wants authenticated for the
 * offer cannot be here (the challenge was for the main payment): trying again or another card would
 * not help, so the payer is told that, not the main payment's "try again".
 */
function offerRefusal(error: unknown, t: Translate): string {
  if (!(error instanceof Shift4Error) || error.type !== 'card_error') return t('offerUnavailable');
  return error.code === 'authentication_required' ? t('offerNeedsAuthentication') : payerMessage(error, t);
}

/** A line added to the receipt after the payment (an offer subscribed to). */
function addToReceipt(term: string, value: string): void {
  const dt = document.createElement('dt');
  dt.textContent = term;
  const dd = document.createElement('dd');
  dd.textContent = value;
  byId('receipt')?.append(dt, dd);
}
