/** Shapes and helpers shared by the plans, subscriptions and test clock API tests. */
import { expect } from 'chai';
import type { PlanObject as Plan } from '../../projections/views/plan-view.ts';
import type { SubscriptionObject as Subscription } from '../../projections/views/subscription-view.ts';
import type { TestClockObject as TestClock } from '../../projections/views/test-clock-view.ts';
import type { ApiClient } from './api-client.ts';
import { eventually } from './eventually.ts';
import { cardDetails, type Charge, type Page } from './payments.ts';

/** The objects as the API renders them: the views' own types. */
export type { Plan, Subscription, TestClock };

export type SubscriptionCharge = Charge & { subscriptionId: string | null; type?: string };

export const DAY = 86_400;
export const VISA = '4242424242424242';
/** Can be saved; every charge on it declines (card_declined). */
export const ALWAYS_DECLINES = '4000000000000341';

/** Unix seconds of an ISO time. */
export const at = (iso: string): number => Date.parse(iso) / 1000;

/** `from` plus `months` calendar months in UTC, clamped to the month's end (what a monthly plan bills on). */
export function monthsAfter(from: number, months: number): number {
  const start = new Date(from * 1000);
  const target = new Date(
    Date.UTC(
      start.getUTCFullYear(),
      start.getUTCMonth() + months,
      1,
      start.getUTCHours(),
      start.getUTCMinutes(),
      start.getUTCSeconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(start.getUTCDate(), lastDay));
  return target.getTime() / 1000;
}

export async function createPlan(api: ApiClient, fields: Record<string, unknown> = {}): Promise<Plan> {
  const response = await api.post<Plan>('/plans', {
    json: { amount: 1000, currency: 'EUR', interval: 'month', name: 'Monthly', ...fields },
  });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body;
}

export async function createClock(api: ApiClient, frozenTime: number): Promise<TestClock> {
  const response = await api.post<TestClock>('/test-clocks', { json: { frozenTime } });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body;
}

/** A customer living on the clock, with a saved default card. */
export async function customerOnClock(
  api: ApiClient,
  clockId: string,
  number = VISA,
): Promise<{ id: string; defaultCardId: string }> {
  const response = await api.post<{ id: string; defaultCardId: string }>('/customers', {
    json: { email: 'subscriber@example.com', testClockId: clockId, card: cardDetails(number) },
  });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body;
}

export async function subscribe(
  api: ApiClient,
  customerId: string,
  fields: Record<string, unknown>,
): Promise<Subscription> {
  const response = await api.post<Subscription>(`/customers/${customerId}/subscriptions`, { json: fields });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body;
}

/** Advances the clock and waits until it reports `ready`. */
export async function advance(api: ApiClient, clockId: string, frozenTime: number): Promise<TestClock> {
  const started = await api.post<TestClock>(`/test-clocks/${clockId}/advance`, { json: { frozenTime } });
  expect(started.status, JSON.stringify(started.body)).to.equal(200);
  expect(started.body.frozenTime).to.equal(frozenTime);
  return waitUntil(async () => {
    const clock = (await api.get<TestClock>(`/test-clocks/${clockId}`)).body;
    return clock.status === 'ready' ? clock : null;
  }, `test clock ${clockId} to be ready`);
}

export async function getSubscription(api: ApiClient, id: string): Promise<Subscription> {
  const response = await api.get<Subscription>(`/subscriptions/${id}`);
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body;
}

/** Charges of a subscription, oldest first. */
export async function chargesOf(
  api: ApiClient,
  customerId: string,
  subscriptionId: string,
): Promise<SubscriptionCharge[]> {
  const page = (await api.get<Page<SubscriptionCharge>>('/charges', { query: { customerId, limit: '100' } })).body;
  return page.list.filter((charge) => charge.subscriptionId === subscriptionId).reverse();
}

export async function waitUntil<T>(
  probe: () => Promise<T | null | false | undefined>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  return (await eventually(probe, Boolean, timeoutMs, () => `Timed out waiting for ${what}`)) as T;
}
