import { type CheckoutView } from '../../checkout/checkout-view.ts';
import { Shift4Error, callApi } from '../service.ts';
import { type Translate, payerMessage } from './payer-messages.ts';
import { byId, onClick } from './checkout-dom.ts';

/** A card as the page shows it: a token's, a remembered one's or the receipt's. */
export interface Card {
  brand: string;
  last4: string;
  expMonth?: number | string;
  expYear?: number | string;
}

/**
 * "Use my saved card": a code is sent to the typed email (in test mode the service answers it and
 * the page shows it), and once confirmed the payment uses the remembered card instead of the fields.
 */
export function rememberedCards(view: CheckoutView, email: HTMLInputElement, t: Translate, focusCard: () => void) {
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
