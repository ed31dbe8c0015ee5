/** Shapes and helpers of the dispute and fraud-warning API tests (delayed network outcomes). */
import { expect } from 'chai';
import type { ApiClient } from './api-client.ts';
import { eventually } from './eventually.ts';
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
export type FraudWarning = {
  id: string;
  created: number;
  objectType: 'fraud_warning';
  charge: string;
  actionable: boolean;
};

export const DISPUTE_CARD = '4242000000000018';
export const FRAUD_WARNING_CARD = '4242000000000208';

export { eventually };

export async function createCharge(
  api: ApiClient,
  number: string,
  extra: Record<string, unknown> = {},
): Promise<DisputedCharge> {
  const response = await api.post<DisputedCharge>('/charges', {
    json: { amount: 2500, currency: 'EUR', card: cardDetails(number), ...extra },
  });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body;
}

export const readCharge = async (api: ApiClient, chargeId: string): Promise<DisputedCharge> =>
  (await api.get<DisputedCharge>(`/charges/${chargeId}`)).body;

/** A charge on the dispute card, once its dispute has opened and every read model shows it. */
export async function disputedCharge(
  api: ApiClient,
  extra: Record<string, unknown> = {},
): Promise<DisputedCharge & { dispute: DisputeFields }> {
  const charge = await createCharge(api, DISPUTE_CARD, extra);
  const disputed = (await eventually(
    () => readCharge(api, charge.id),
    (read) => read.disputed,
  )) as DisputedCharge & { dispute: DisputeFields };
  // Each read model catches up on its own: the dispute list and the events may follow the charge by a moment.
  await eventually(
    () => api.get(`/disputes/${disputed.dispute.id}`),
    (response) => response.status === 200,
  );
  await eventualEventTypes(api, charge.id, 3);
  return disputed;
}

/** Public event types of one object, oldest first, once there are `count` of them. */
export async function eventualEventTypes(api: ApiClient, objectId: string, count: number): Promise<string[]> {
  const events = await eventually(
    () => eventsOf(api, objectId),
    (list) => list.length >= count,
  );
  return events.map((event) => event.type).reverse();
}
