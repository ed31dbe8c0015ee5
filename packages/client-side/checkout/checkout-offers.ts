import { type CheckoutView } from '../../checkout/checkout-view.ts';
import { Shift4Error, callApi } from '../service.ts';
import { type Translate, payerMessage } from './payer-messages.ts';
import { onClick } from './checkout-dom.ts';

/** The offers after the payment: each "Buy" charges the payer's card for that offer, once. */
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
