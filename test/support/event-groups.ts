/**
 * One row per public event group of the spec (Events): operations that produce every event type
 * of the group. Used by the webhook tests to check that each type reaches a receiver exactly as
 * GET /events/{id} shows it.
 */
import { expect } from 'chai';
import type { ApiClient } from './api-client.ts';
import { cardDetails, type Card, type Charge, type Customer } from './payments.ts';
import { createCharge, DISPUTE_CARD, eventually, readCharge, type Dispute } from './disputes.ts';

export interface EventGroup {
  group: string;
  /** The public event types the operations produce (each at least once). */
  types: string[];
  perform(api: ApiClient): Promise<void>;
}

async function ok<T>(response: Promise<{ status: number; body: T }>, status = 200): Promise<T> {
  const { status: actual, body } = await response;
  expect(actual, JSON.stringify(body)).to.equal(status);
  return body;
}

export const eventGroups: EventGroup[] = [
  {
    group: 'customer',
    types: ['CUSTOMER_CREATED', 'CUSTOMER_UPDATED', 'CUSTOMER_DELETED'],
    async perform(api) {
      const customer = await ok(api.post<Customer>('/customers', { json: { email: 'webhooks-customer@example.com' } }));
      await ok(api.post(`/customers/${customer.id}`, { json: { description: 'Updated for webhooks' } }));
      await ok(api.delete(`/customers/${customer.id}`));
    },
  },
  {
    group: 'card',
    types: ['CUSTOMER_CARD_CREATED', 'CUSTOMER_CARD_UPDATED', 'CUSTOMER_CARD_DELETED'],
    async perform(api) {
      const customer = await ok(api.post<Customer>('/customers', { json: { email: 'webhooks-card@example.com' } }));
      const card = await ok(
        api.post<Card>(`/customers/${customer.id}/cards`, { json: cardDetails('4242424242424242') }),
      );
      await ok(api.post(`/customers/${customer.id}/cards/${card.id}`, { json: { cardholderName: 'Jane Webhook' } }));
      await ok(api.delete(`/customers/${customer.id}/cards/${card.id}`));
    },
  },
  {
    group: 'charge',
    types: ['CHARGE_SUCCEEDED', 'CHARGE_FAILED', 'CHARGE_CAPTURED', 'CHARGE_UPDATED', 'CHARGE_REFUNDED'],
    async perform(api) {
      const charge = await ok(
        api.post<Charge>('/charges', {
          json: { amount: 1200, currency: 'EUR', card: cardDetails('4242424242424242'), captured: false },
        }),
      );
      await ok(api.post(`/charges/${charge.id}/capture`));
      await ok(api.post(`/charges/${charge.id}`, { json: { description: 'Order 42' } }));
      await ok(api.post(`/charges/${charge.id}/refund`, { json: { amount: 200 } }));
      await ok(
        api.post('/charges', { json: { amount: 500, currency: 'EUR', card: cardDetails('4000000000000002') } }),
        402,
      );
    },
  },
  {
    group: 'dispute',
    types: [
      'CHARGE_DISPUTE_CREATED',
      'CHARGE_DISPUTE_UPDATED',
      'CHARGE_DISPUTE_WON',
      'CHARGE_DISPUTE_LOST',
      'CHARGE_DISPUTE_FUNDS_WITHDRAWN',
      'CHARGE_DISPUTE_FUNDS_RESTORED',
    ],
    // Disputes open by themselves after NETWORK_DISPUTE_DELAY_MS (default 2 s); one is won, one accepted as lost.
    async perform(api) {
      const charges = [await createCharge(api, DISPUTE_CARD), await createCharge(api, DISPUTE_CARD)];
      const [contested, accepted] = await Promise.all(
        charges.map((charge) =>
          eventually(
            () => readCharge(api, charge.id),
            (read) => read.disputed,
          ),
        ),
      );
      await ok(
        api.post(`/disputes/${contested!.dispute!.id}`, {
          json: { evidence: { uncategorizedText: 'winning_evidence' } },
        }),
      );
      await ok(api.post(`/disputes/${accepted!.dispute!.id}/close`));
      await eventually(
        () => ok(api.get<Dispute>(`/disputes/${contested!.dispute!.id}`)),
        (dispute) => dispute.status === 'CHARGEBACK_REPRESENTED_SUCCESSFULLY',
      );
    },
  },
  {
    group: 'plan',
    types: ['PLAN_CREATED', 'PLAN_UPDATED', 'PLAN_DELETED'],
    async perform(api) {
      const plan = await ok(
        api.post<{ id: string }>('/plans', {
          json: { amount: 990, currency: 'EUR', interval: 'month', name: 'Webhook plan' },
        }),
      );
      await ok(api.post(`/plans/${plan.id}`, { json: { name: 'Webhook plan, renamed' } }));
      await ok(api.delete(`/plans/${plan.id}`));
    },
  },
  {
    group: 'cross-sale offer',
    types: ['CROSS_SALE_OFFER_CREATED', 'CROSS_SALE_OFFER_UPDATED', 'CROSS_SALE_OFFER_DELETED'],
    async perform(api) {
      const offer = await ok(
        api.post<{ id: string }>('/cross-sale-offers', {
          json: { charge: { amount: 500, currency: 'EUR' }, template: 'text_only', title: 'Webhook offer' },
        }),
      );
      await ok(api.post(`/cross-sale-offers/${offer.id}`, { json: { title: 'Webhook offer, renamed' } }));
      await ok(api.delete(`/cross-sale-offers/${offer.id}`));
    },
  },
  {
    group: 'subscription',
    types: ['CUSTOMER_SUBSCRIPTION_CREATED', 'CUSTOMER_SUBSCRIPTION_UPDATED', 'CUSTOMER_SUBSCRIPTION_DELETED'],
    async perform(api) {
      const plan = await ok(
        api.post<{ id: string }>('/plans', {
          json: { amount: 1500, currency: 'EUR', interval: 'month', name: 'Webhook subscription plan' },
        }),
      );
      const customer = await ok(
        api.post<Customer>('/customers', {
          json: { email: 'webhooks-subscription@example.com', card: cardDetails('4242424242424242') },
        }),
      );
      const subscription = await ok(
        api.post<{ id: string }>(`/customers/${customer.id}/subscriptions`, { json: { planId: plan.id } }),
      );
      await ok(api.post(`/customers/${customer.id}/subscriptions/${subscription.id}`, { json: { quantity: 2 } }));
      await ok(api.delete(`/customers/${customer.id}/subscriptions/${subscription.id}`));
    },
  },
];
