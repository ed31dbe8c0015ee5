/** Shapes and helpers of the dispute and fraud-warning API tests (delayed network outcomes). */
import { expect } from 'chai';
import type { ApiClient } from './api-client.ts';
import { cardDetails, eventsOf, type Charge } from './payments.ts';

export type DisputeFields = {
  id: string;
  created: number;
  updated: number;
  objectType: 'dispute';
  amount: number;
  currency: string;
  status: string;
  reason: string;
  acceptedAsLost: boolean;
  evidence: Record<string, string> | null;
  evidenceDetails: { hasEvidence: boolean; submissionCount: number };
};
export type Dispute = DisputeFields & { charge: DisputedCharge };
export type DisputedCharge = Charge & { disputed: boolean; dispute?: DisputeFields };
export type FraudWarning = { id: string; created: number; objectType: 'fraud_warning'; charge: string; actionable: boolean };

export const DISPUTE_CARD = '4242000000000018';
export const FRAUD_WARNING_CARD = '4242000000000208';

/** Polls `read` until `done` holds (or fails after `timeoutMs`); returns the last value read. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not reached within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function createCharge(api: ApiClient, number: string, extra: Record<string, unknown> = {}): Promise<DisputedCharge> {
  const response = await api.post<DisputedCharge>('/charges', { json: { amount: 2500, currency: 'EUR', card: cardDetails(number), ...extra } });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body;
}

export const readCharge = async (api: ApiClient, chargeId: string): Promise<DisputedCharge> => (await api.get<DisputedCharge>(`/charges/${chargeId}`)).body;

/** A charge on the dispute card, once its dispute has opened and every read model shows it. */
export async function disputedCharge(api: ApiClient, extra: Record<string, unknown> = {}): Promise<DisputedCharge & { dispute: DisputeFields }> {
  const charge = await createCharge(api, DISPUTE_CARD, extra);
  const disputed = (await eventually(() => readCharge(api, charge.id), (read) => read.disputed)) as DisputedCharge & { dispute: DisputeFields };
  // Each read model catches up on its own: the dispute list and the events may follow the charge by a moment.
  await eventually(() => api.get(`/disputes/${disputed.dispute.id}`), (response) => response.status === 200);
  await eventualEventTypes(api, charge.id, 3);
  return disputed;
}

/** Public event types of one object, oldest first, once there are `count` of them. */
export async function eventualEventTypes(api: ApiClient, objectId: string, count: number): Promise<string[]> {
  const events = await eventually(() => eventsOf(api, objectId), (list) => list.length >= count);
  return events.map((event) => event.type).reverse();
}
