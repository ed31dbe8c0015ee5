/** Shapes and helpers of the payment-method API tests: payment methods, payment-method charges, the redirect page. */
import { expect } from 'chai';
import type { ApiClient } from './api-client.ts';
import type { Charge } from './payments.ts';

export type PaymentMethod = {
  id: string;
  created: number;
  objectType: 'paymentMethod';
  clientObjectId: string;
  type: string;
  billing: Record<string, unknown> | null;
  customerId: string | null;
  status: 'chargeable' | 'canceled';
  metadata: Record<string, string>;
  deleted?: true;
};

export type PaymentMethodCharge = Omit<Charge, 'card'> & {
  clientObjectId: string;
  paymentMethod: PaymentMethod;
  amountRefunded: number;
  flow: { nextAction: 'redirect' | 'wait' | 'none'; returnUrl: string; redirect?: { redirectUrl: string } };
};

export const RETURN_URL = 'https://shop.example/orders/42/return?step=pay';

/** Creates a payment-method charge and checks it is pending with a redirect. */
export async function createPaymentMethodCharge(
  api: ApiClient,
  fields: Record<string, unknown> = {},
): Promise<PaymentMethodCharge> {
  const response = await api.post<PaymentMethodCharge>('/charges', {
    json: {
      amount: 1250,
      currency: 'EUR',
      paymentMethod: { type: 'ideal' },
      flow: { returnUrl: RETURN_URL },
      ...fields,
    },
  });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  expect(response.body.status).to.equal('pending');
  return response.body;
}

/**
 * Completes the provider's page the way a payer's browser would, without a browser: the form POST
 * of the chosen outcome to the redirect URL. Returns the answer (a 303 to the return address).
 */
export async function completeRedirect(charge: PaymentMethodCharge, outcome: string): Promise<Response> {
  return fetch(charge.flow.redirect!.redirectUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: 'manual',
  });
}
