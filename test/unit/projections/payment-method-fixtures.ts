/** Events of a payment method and of a charge made with it, shared by the projection specs. */
import type { ChargeStreamEvent } from '../../../packages/domain/charge/charge-state.ts';
import type { PaymentMethodChargeAttempt } from '../../../packages/domain/charge/payment-method-charge.ts';
import type { PaymentMethodDetails } from '../../../packages/domain/payment-method/payment-method-events.ts';
import { inStream } from './projection-spec.ts';

export const createdAt = '2026-02-01T09:00:00.000Z';
export const method: PaymentMethodDetails = {
  paymentMethodId: 'pm_1',
  clientObjectId: 'client_pm_1',
  type: 'sofort',
  billing: { name: 'Ada' },
  customerId: 'cust_1',
  metadata: {},
  createdAt,
};
const attempt: PaymentMethodChargeAttempt = {
  chargeId: 'char_1',
  clientObjectId: 'client_char_1',
  amount: 1000,
  currency: 'EUR',
  type: null,
  description: 'Order 7',
  customerId: 'cust_1',
  subscriptionId: null,
  paymentMethod: method,
  captured: false,
  shipping: null,
  fraudDetails: { status: 'unknown', score: 0 },
  merchantAccountId: null,
  metadata: {},
  returnUrl: 'https://shop.example/return',
  redirectUrl: 'http://pay.example/payment-redirects/client_char_1',
  expiresAt: '2026-02-01T11:00:00.000Z',
};
export const charge = inStream('charge-char_1');
export const pending: ChargeStreamEvent = { type: 'ChargePending', data: attempt };
export const processing: ChargeStreamEvent = {
  type: 'PaymentMethodChargeProcessing',
  data: { chargeId: 'char_1', settlesAt: '2026-02-01T10:05:00.000Z' },
};
export const authorized: ChargeStreamEvent = { type: 'PaymentMethodChargeAuthorized', data: { chargeId: 'char_1' } };
