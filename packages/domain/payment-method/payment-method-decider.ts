import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError } from '../errors.ts';
import type { PaymentMethodDetails, PaymentMethodEvent } from './payment-method-events.ts';
import { evolvePaymentMethod, initialPaymentMethodState, type PaymentMethodState } from './payment-method-state.ts';

/** Whether `customerId` names a live customer is checked before deciding (it is another stream). */
export type PaymentMethodCommand =
  | { type: 'CreatePaymentMethod'; details: PaymentMethodDetails }
  | { type: 'DeletePaymentMethod'; paymentMethodId: string };

export const paymentMethodDecider: Decider<PaymentMethodCommand, PaymentMethodEvent, PaymentMethodState> = {
  initialState: initialPaymentMethodState,
  evolve: evolvePaymentMethod,
  decide(command, state) {
    switch (command.type) {
      case 'CreatePaymentMethod':
        if (state.status !== 'none')
          throw new InvalidRequestError(`Payment method '${command.details.paymentMethodId}' already exists`);
        return [{ type: 'PaymentMethodCreated', data: command.details }];
      case 'DeletePaymentMethod':
        if (state.status === 'none') throw new NotFoundError('Payment method', command.paymentMethodId);
        // Deleting twice is not an error: the object is already in the asked state.
        if (state.status === 'deleted') return [];
        return [{ type: 'PaymentMethodDeleted', data: { paymentMethodId: command.paymentMethodId } }];
    }
  },
};
