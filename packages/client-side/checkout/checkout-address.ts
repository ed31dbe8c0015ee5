import { type MessageKey } from '../i18n/en.ts';
import { byId } from './checkout-dom.ts';

/** The parts of an address the page asks for (`billingAddress`, `shippingAddress` options). */
export type AddressPart = 'name' | 'line1' | 'line2' | 'zip' | 'city' | 'state' | 'country';
export type Address = Partial<Record<AddressPart, string>>;
export const ADDRESS_PARTS: readonly AddressPart[] = ['name', 'line1', 'line2', 'zip', 'city', 'state', 'country'];

/**
 * The billing or shipping address the merchant asked for (rendered by the service only then):
 * its values, and a check that says what is missing next to each field.
 */
export function addressForm(kind: 'billing' | 'shipping', t: (key: MessageKey) => string) {
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
export function cardAddressOf(address: Address): Record<string, string> {
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
export function shippingOf({ name, ...address }: Address): { name?: string; address: Omit<Address, 'name'> } {
  return { ...(name ? { name } : {}), address };
}
