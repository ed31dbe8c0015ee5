import type { PaymentMethodDetails, PaymentMethodEvent } from './payment-method-events.ts';

/** `chargeable` from creation until deleted (soft delete: the object stays readable). */
export type PaymentMethodState = { status: 'none' } | ({ status: 'chargeable' | 'deleted' } & PaymentMethodDetails);

export const initialPaymentMethodState = (): PaymentMethodState => ({ status: 'none' });

export function evolvePaymentMethod(state: PaymentMethodState, event: PaymentMethodEvent): PaymentMethodState {
  switch (event.type) {
    case 'PaymentMethodCreated':
      return { status: 'chargeable', ...event.data };
    case 'PaymentMethodDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
  }
}
