import { type CheckoutView } from '../../checkout/checkout-view.ts';
import { type Translate } from './payer-messages.ts';
import { byId } from './checkout-dom.ts';
import { parseMoney } from '../../money/money.ts';

/** The amount of a `customCharge`: an option button (aria-pressed) or a typed amount within bounds. */
export function customAmount(
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

  for (const option of options) {
    option.addEventListener('click', () => {
      chosen = Number(option.dataset.amount);
      for (const other of options) other.setAttribute('aria-pressed', String(other === option));
      if (input) input.value = '';
      showError('');
      update();
    });
    // Rendered disabled: a click before this script runs would choose nothing.
    option.disabled = false;
  }

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
