import {
  webhookDeliveryEventTypes,
  type WebhookDeliveryEvent,
} from '../packages/domain/webhook-delivery/webhook-delivery-events.ts';
import {
  webhookEndpointEventTypes,
  type WebhookEndpointEvent,
} from '../packages/domain/webhook-endpoint/webhook-endpoint-events.ts';
import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { Document } from '../packages/readstore/document-store.ts';
import type { Projection, ProjectionTransaction } from '../packages/projection/projection.ts';
import { deterministicId } from './deterministic-id.ts';
import { occurredAtSeconds } from './event-time.ts';
import { privateCopyCollections, producesPublicEvents, publicEventsOf } from './public-events-of.ts';
import type { PublicEventDoc } from './public-events-projection.ts';
import { scopedIndexes } from './view-projection.ts';
import { WEBHOOK_DUE, webhookDueDoc } from './webhook-due-deliveries.ts';
import type { Mode } from '../packages/domain/mode.ts';

export interface WebhookAttemptView {
  attempt: number;
  /** Unix seconds the request was started. */
  created: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** GET /webhook-endpoints/{id}/deliveries: one public event to one endpoint, with every attempt. */
export interface WebhookDeliveryDoc extends Document {
  objectType: 'webhookDelivery';
  endpointId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed' | 'canceled';
  attempts: WebhookAttemptView[];
  /** Unix seconds of the next attempt while pending, else null. */
  nextAttemptAt: number | null;
  _accountId: string;
  _mode: Mode;
}

/** Per account and mode, the endpoints and what they subscribe to, as of the event being projected. */
interface SubscriptionsDoc extends Document {
  endpoints: { endpointId: string; events: string[]; enabled: boolean }[];
}

const DELIVERIES = 'webhook_deliveries';
const SUBSCRIPTIONS = 'webhook_subscriptions';
const PRIVATE_PREFIX = 'webhook_';

const endpointTypes = new Set<string>(webhookEndpointEventTypes);
const deliveryTypes = new Set<string>(webhookDeliveryEventTypes);

/**
 * `webhook-deliveries`: turns every public event into one delivery per endpoint of its account and
 * mode that is enabled and subscribes to its type at that point of the log (so an endpoint gets
 * only the events after its creation), and folds the attempts recorded by the worker into each
 * delivery. Deliveries are derived from the log, never from the queue (DESIGN §4.7): a rebuild
 * gives them back, each pending one with its next attempt in `webhook_due`.
 */
export const webhookDeliveriesProjection: Projection = {
  name: 'webhook-deliveries',
  collections: {
    [DELIVERIES]: scopedIndexes('endpointId', 'status', 'eventId'),
    [WEBHOOK_DUE]: {},
    [SUBSCRIPTIONS]: {},
    ...privateCopyCollections(PRIVATE_PREFIX),
  },
  handles: (type) => endpointTypes.has(type) || deliveryTypes.has(type) || producesPublicEvents(type),
  async apply(event: RecordedEvent, tx: ProjectionTransaction) {
    if (endpointTypes.has(event.type)) return updateSubscriptions(event, tx);
    if (deliveryTypes.has(event.type)) return recordDeliveryEvent(event, tx);
    const publicEvents = await publicEventsOf(event, tx, PRIVATE_PREFIX);
    if (publicEvents.length === 0) return;
    const subscriptions = await tx.get<SubscriptionsDoc>(SUBSCRIPTIONS, tenantKey(event));
    for (const publicEvent of publicEvents) {
      for (const endpoint of subscriptions?.endpoints ?? []) {
        if (!endpoint.enabled || (endpoint.events.length > 0 && !endpoint.events.includes(publicEvent.type))) continue;
        createDelivery(endpoint.endpointId, publicEvent, event, tx);
      }
    }
  },
};

/** Delivery ids are derived, so a rebuild (or a second fan-out) gives the same delivery. */
export const webhookDeliveryId = (endpointId: string, eventId: string): string =>
  deterministicId('wd', `${endpointId}:${eventId}`);

function createDelivery(
  endpointId: string,
  publicEvent: PublicEventDoc,
  source: RecordedEvent,
  tx: ProjectionTransaction,
): void {
  const deliveryId = webhookDeliveryId(endpointId, publicEvent.id);
  // Due when the event was recorded: real time, also for events on a test clock.
  const dueAtMs = source.recordedAt.getTime();
  const delivery: WebhookDeliveryDoc = {
    id: deliveryId,
    created: publicEvent.created,
    objectType: 'webhookDelivery',
    endpointId,
    eventId: publicEvent.id,
    eventType: publicEvent.type,
    status: 'pending',
    attempts: [],
    nextAttemptAt: Math.floor(dueAtMs / 1000),
    _accountId: publicEvent._accountId,
    _mode: publicEvent._mode,
    _seq: publicEvent._seq ?? source.position,
  };
  tx.put(DELIVERIES, delivery);
  tx.put(
    WEBHOOK_DUE,
    webhookDueDoc(
      {
        deliveryId,
        endpointId,
        eventId: publicEvent.id,
        eventType: publicEvent.type,
        attempt: 1,
        dueAtMs,
        accountId: publicEvent._accountId,
        mode: publicEvent._mode,
      },
      delivery._seq ?? 0,
    ),
  );
}

async function recordDeliveryEvent(recorded: RecordedEvent, tx: ProjectionTransaction): Promise<void> {
  const event = recorded as unknown as RecordedEvent & WebhookDeliveryEvent;
  const { deliveryId } = event.data;
  const current = (await tx.get<WebhookDeliveryDoc>(DELIVERIES, deliveryId)) ?? deliveryFromEvent(recorded, event);
  switch (event.type) {
    case 'WebhookDeliveryAttempted': {
      const { attempt, attemptedAt, statusCode, durationMs, error, outcome, nextAttemptAt } = event.data;
      const attempts = [
        ...current.attempts.filter((known) => known.attempt !== attempt),
        { attempt, created: isoSeconds(attemptedAt), statusCode, durationMs, error },
      ];
      tx.put(DELIVERIES, {
        ...current,
        attempts,
        status: outcome === 'retrying' ? 'pending' : outcome,
        nextAttemptAt: nextAttemptAt === null ? null : isoSeconds(nextAttemptAt),
      });
      if (nextAttemptAt === null) {
        tx.delete(WEBHOOK_DUE, deliveryId);
      } else {
        const { endpointId, eventId, eventType } = event.data;
        const dueAtMs = Date.parse(nextAttemptAt);
        tx.put(
          WEBHOOK_DUE,
          webhookDueDoc(
            {
              deliveryId,
              endpointId,
              eventId,
              eventType,
              attempt: attempt + 1,
              dueAtMs,
              accountId: current._accountId,
              mode: current._mode,
            },
            recorded.position * 16,
          ),
        );
      }
      return;
    }
    case 'WebhookDeliveryCanceled':
      tx.put(DELIVERIES, { ...current, status: 'canceled', nextAttemptAt: null });
      tx.delete(WEBHOOK_DUE, deliveryId);
      return;
  }
}

/** A delivery whose creation this build has not seen (should not happen): rebuilt from its own event. */
function deliveryFromEvent(recorded: RecordedEvent, event: WebhookDeliveryEvent): WebhookDeliveryDoc {
  return {
    id: event.data.deliveryId,
    created: occurredAtSeconds(recorded),
    objectType: 'webhookDelivery',
    endpointId: event.data.endpointId,
    eventId: event.data.eventId,
    eventType: event.data.eventType,
    status: 'pending',
    attempts: [],
    nextAttemptAt: null,
    _accountId: recorded.metadata.accountId,
    _mode: recorded.metadata.mode,
    _seq: recorded.position * 16,
  };
}

async function updateSubscriptions(recorded: RecordedEvent, tx: ProjectionTransaction): Promise<void> {
  const event = recorded as unknown as RecordedEvent & WebhookEndpointEvent;
  const id = tenantKey(recorded);
  const current = (await tx.get<SubscriptionsDoc>(SUBSCRIPTIONS, id)) ?? { id, created: 0, endpoints: [] };
  let endpoints = current.endpoints;
  switch (event.type) {
    case 'WebhookEndpointCreated': {
      const { endpointId, events, enabled } = event.data;
      endpoints = [
        ...endpoints.filter((known) => known.endpointId !== endpointId),
        { endpointId, events: [...events], enabled },
      ];
      break;
    }
    case 'WebhookEndpointUpdated': {
      const { endpointId, events, enabled } = event.data;
      endpoints = endpoints.map((known) =>
        known.endpointId !== endpointId
          ? known
          : {
              ...known,
              ...(events !== undefined && { events: [...events] }),
              ...(enabled !== undefined && { enabled }),
            },
      );
      break;
    }
    case 'WebhookEndpointDeleted':
      endpoints = endpoints.filter((known) => known.endpointId !== event.data.endpointId);
      break;
    case 'WebhookEndpointDisabledAutomatically':
      endpoints = endpoints.map((known) =>
        known.endpointId === event.data.endpointId ? { ...known, enabled: false } : known,
      );
      break;
    default:
      // The count of failed deliveries changes no subscription.
      return;
  }
  tx.put(SUBSCRIPTIONS, { ...current, endpoints });
}

const tenantKey = (event: RecordedEvent): string => `${event.metadata.accountId}:${event.metadata.mode}`;

const isoSeconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);
