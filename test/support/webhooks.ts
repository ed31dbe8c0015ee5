/** Helpers of the webhook API tests: endpoints, deliveries, events, and an independent signature check. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { expect } from 'chai';
import type { WebhookEndpointObject } from '../../projections/views/webhook-endpoint-view.ts';
import type {
  WebhookAttemptView as WebhookAttempt,
  WebhookDeliveryObject as WebhookDelivery,
} from '../../projections/webhook-deliveries-projection.ts';
import type { ApiClient } from './api-client.ts';
import { eventually } from './eventually.ts';
import type { Page, PublicEvent } from './payments.ts';
import type { ReceivedWebhook, WebhookReceiver } from './webhook-receiver.ts';

/** The objects as the API renders them: the views' own types. */
export type { WebhookAttempt, WebhookDelivery };
/** An endpoint; the answer of its creation also shows its signing secret, once. */
export type WebhookEndpoint = WebhookEndpointObject & { secret?: string };

export async function createEndpoint(
  api: ApiClient,
  receiver: WebhookReceiver | string,
  extra: Record<string, unknown> = {},
): Promise<WebhookEndpoint & { secret: string }> {
  const url = typeof receiver === 'string' ? receiver : receiver.url;
  const response = await api.post<WebhookEndpoint & { secret: string }>('/webhook-endpoints', {
    json: { url, ...extra },
  });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body;
}

/** Every delivery of an endpoint, newest first. */
export async function deliveriesOf(
  api: ApiClient,
  endpointId: string,
  query: Record<string, string> = {},
): Promise<WebhookDelivery[]> {
  const found: WebhookDelivery[] = [];
  let startingAfterId: string | undefined;
  for (;;) {
    const response = await api.get<Page<WebhookDelivery>>(`/webhook-endpoints/${endpointId}/deliveries`, {
      query: { limit: '100', ...query, ...(startingAfterId ? { startingAfterId } : {}) },
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    found.push(...response.body.list);
    if (!response.body.hasMore) return found;
    startingAfterId = response.body.list[response.body.list.length - 1]!.id;
  }
}

/** Polls the deliveries of an endpoint until `predicate` holds. */
export async function waitForDeliveries(
  api: ApiClient,
  endpointId: string,
  predicate: (deliveries: WebhookDelivery[]) => boolean,
  timeoutMs = 20_000,
): Promise<WebhookDelivery[]> {
  return eventually(
    () => deliveriesOf(api, endpointId),
    predicate,
    timeoutMs,
    (deliveries) =>
      `deliveries never matched: ${JSON.stringify(deliveries.map((d) => [d.eventType, d.status, d.attempts.length]))}`,
  );
}

/** For `waitForDeliveries`: one delivery per event, each delivered. */
export function everyEventDelivered(events: ReadonlyMap<string, unknown>): (deliveries: WebhookDelivery[]) => boolean {
  return (deliveries) =>
    deliveries.length === events.size && deliveries.every((delivery) => delivery.status === 'delivered');
}

/** Every public event of the caller's account and mode, by id. */
export async function allEvents(api: ApiClient): Promise<Map<string, PublicEvent>> {
  const found = new Map<string, PublicEvent>();
  let startingAfterId: string | undefined;
  for (;;) {
    const response = await api.get<Page<PublicEvent>>('/events', {
      query: { limit: '100', ...(startingAfterId ? { startingAfterId } : {}) },
    });
    expect(response.status).to.equal(200);
    for (const event of response.body.list) found.set(event.id, event);
    if (!response.body.hasMore) return found;
    startingAfterId = response.body.list[response.body.list.length - 1]!.id;
  }
}

/**
 * What a receiver does with `Shift4-Signature: t=…,v1=…` (the sample of docs/webhooks.md), written
 * here independently of the service's code: HMAC-SHA256 of "<t>.<raw body>", 5 minutes' tolerance.
 */
export function signatureVerifies(secret: string, webhook: ReceivedWebhook, toleranceSeconds = 300): boolean {
  const header = webhook.headers['shift4-signature'];
  if (typeof header !== 'string') return false;
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${webhook.body}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The id of the event a received webhook carries. */
export const eventIdOf = (webhook: ReceivedWebhook): string => (JSON.parse(webhook.body) as { id: string }).id;

/** What a receiver that verifies signatures and counts would report about a set of events. */
export interface DeliveryTally {
  /** Expected events never accepted (answered 2xx). */
  missing: string[];
  /** Expected events accepted more than once (allowed by at-least-once, counted). */
  duplicates: string[];
  /** Accepted webhooks of events not expected. */
  unexpected: string[];
  /** Received webhooks whose signature did not verify with the endpoint's secret. */
  badSignatures: number;
}

export function tallyDeliveries(
  received: ReceivedWebhook[],
  expectedEventIds: Iterable<string>,
  secret: string,
): DeliveryTally {
  const expected = new Set(expectedEventIds);
  const accepted = new Map<string, number>();
  let badSignatures = 0;
  for (const webhook of received) {
    if (!signatureVerifies(secret, webhook)) badSignatures += 1;
    if (typeof webhook.answered !== 'number' || webhook.answered >= 300) continue;
    const id = eventIdOf(webhook);
    accepted.set(id, (accepted.get(id) ?? 0) + 1);
  }
  return {
    missing: [...expected].filter((id) => !accepted.has(id)),
    duplicates: [...accepted].filter(([id, count]) => expected.has(id) && count > 1).map(([id]) => id),
    unexpected: [...accepted.keys()].filter((id) => !expected.has(id)),
    badSignatures,
  };
}
