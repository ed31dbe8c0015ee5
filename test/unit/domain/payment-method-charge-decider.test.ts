import { chargeDecider } from '../../../packages/domain/charge/charge-decider.ts';
import type { ChargeStreamEvent } from '../../../packages/domain/charge/charge-state.ts';
import {
  providerFailures,
  type PaymentMethodChargeAttempt,
} from '../../../packages/domain/charge/payment-method-charge.ts';
import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import type { PaymentMethodType } from '../../../packages/domain/payment-method/payment-method-events.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(chargeDecider);
const expiresAt = '2026-01-01T01:00:00.000Z';
const settlesAt = '2026-01-01T00:10:05.000Z';

const attempt = (type: PaymentMethodType = 'sofort'): PaymentMethodChargeAttempt => ({
  chargeId: 'char_1',
  clientObjectId: 'client_char_1',
  amount: 1000,
  currency: 'EUR',
  type: null,
  description: null,
  customerId: null,
  subscriptionId: null,
  paymentMethod: {
    paymentMethodId: 'pm_1',
    clientObjectId: 'client_pm_1',
    type,
    billing: null,
    customerId: null,
    metadata: {},
    createdAt: '2026-01-01T00:00:00.000Z',
  },
  captured: true,
  shipping: null,
  fraudDetails: { status: 'unknown', score: 0 },
  merchantAccountId: null,
  metadata: {},
  returnUrl: 'https://shop.example/return',
  redirectUrl: 'http://localhost/payment-redirects/client_char_1',
  expiresAt,
});
const pending: ChargeStreamEvent = { type: 'ChargePending', data: attempt() };
const processing: ChargeStreamEvent = {
  type: 'PaymentMethodChargeProcessing',
  data: { chargeId: 'char_1', settlesAt },
};
const authorized: ChargeStreamEvent = { type: 'PaymentMethodChargeAuthorized', data: { chargeId: 'char_1' } };
const declined: ChargeStreamEvent = {
  type: 'PaymentMethodChargeFailed',
  data: { chargeId: 'char_1', reason: 'declined', ...providerFailures.declined },
};
const expired: ChargeStreamEvent = {
  type: 'PaymentMethodChargeFailed',
  data: { chargeId: 'char_1', reason: 'expired', ...providerFailures.expired },
};
const choose = (outcome: 'authorize' | 'decline' | 'processing') =>
  ({ type: 'ChooseProviderOutcome', chargeId: 'char_1', outcome, settlesAt }) as const;
const settle = (now: string) => ({ type: 'SettlePaymentMethodCharge', chargeId: 'char_1', now }) as const;

describe('payment-method charge decider', () => {
  it('records a pending charge once', () => {
    spec([]).when({ type: 'RecordPaymentMethodCharge', attempt: attempt() }).then([pending]);
    spec([pending])
      .when({ type: 'RecordPaymentMethodCharge', attempt: attempt() })
      .thenThrows(InvalidRequestError, /already exists/);
  });

  it("takes the payer's choice once: authorize, decline, or processing for a method that confirms later", () => {
    spec([pending]).when(choose('authorize')).then([authorized]);
    spec([pending]).when(choose('decline')).then([declined]);
    spec([pending]).when(choose('processing')).then([processing]);
    spec([pending, authorized])
      .when(choose('decline'))
      .thenThrows(InvalidRequestError, /already successful/);
    spec([pending, declined])
      .when(choose('authorize'))
      .thenThrows(InvalidRequestError, /already failed/);
    spec([pending, processing])
      .when(choose('authorize'))
      .thenThrows(InvalidRequestError, /being processed/);
    const ideal: ChargeStreamEvent = { type: 'ChargePending', data: attempt('ideal') };
    spec([ideal])
      .when(choose('processing'))
      .thenThrows(InvalidRequestError, /confirmed at once/);
    spec([]).when(choose('authorize')).thenThrows(NotFoundError);
  });

  it('expires a charge the payer left at its expiry, and not before', () => {
    spec([pending]).when(settle('2026-01-01T00:59:59.999Z')).then([]);
    spec([pending]).when(settle(expiresAt)).then([expired]);
    spec([pending, authorized]).when(settle('2026-01-02T00:00:00.000Z')).then([]);
  });

  it('confirms a processed payment at its time, however late, and never expires it', () => {
    spec([pending, processing]).when(settle('2026-01-01T00:10:04.000Z')).then([]);
    spec([pending, processing]).when(settle(settlesAt)).then([authorized]);
    spec([pending, processing]).when(settle('2026-01-02T00:00:00.000Z')).then([authorized]);
    spec([pending, processing, authorized]).when(settle('2026-01-02T00:00:00.000Z')).then([]);
  });

  it('refuses capture and refunds while pending, and billing on a payment-method charge', () => {
    spec([pending])
      .when({ type: 'CaptureCharge', chargeId: 'char_1' })
      .thenThrows(InvalidRequestError, /pending/);
    spec([pending])
      .when({ type: 'RequestRefund', chargeId: 'char_1', refundId: 're_1', reason: null, metadata: {} })
      .thenThrows(InvalidRequestError, /pending/);
    spec([pending, authorized])
      .when({ type: 'UpdateCharge', chargeId: 'char_1', billing: { name: 'X' } })
      .thenThrows(InvalidRequestError, /billing cannot be used with paymentMethod/);
  });

  it('refunds an authorized payment-method charge like a card charge', () => {
    spec([pending, authorized])
      .when({ type: 'RequestRefund', chargeId: 'char_1', refundId: 're_1', amount: 400, reason: null, metadata: {} })
      .then([
        {
          type: 'RefundRequested',
          data: { chargeId: 'char_1', refundId: 're_1', amount: 400, currency: 'EUR', reason: null, metadata: {} },
        },
      ]);
  });
});
