import type { WebhookDeliveryEvent } from '../packages/domain/webhook-delivery/webhook-delivery-events.ts';
import type { WebhookEndpointEvent } from '../packages/domain/webhook-endpoint/webhook-endpoint-events.ts';
import type { Mode } from '../packages/domain/mode.ts';
import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { ProjectedEvent, Projection, ProjectionTransaction } from '../packages/projection-runtime/projection.ts';
import {
  objectCollection,
  ownedCollections,
  readModelCollection,
} from '../packages/projection-runtime/read-model-collection.ts';
import { deterministicId } from './deterministic-id.ts';
import { eventDispatch } from './event-projection.ts';
import { occurredAtSeconds } from './event-time.ts';
import { producedPublicEvents, publicObjectSources, type ProducedPublicEvent } from './public-events-projection.ts';
import type { PublicObjectEvents } from './read-side.ts';
import { scopedIndexes } from './view-projection.ts';
import { webhookDueCollection, webhookDueDoc } from './webhook-due-deliveries.ts';

export interface WebhookAttemptView {
  attempt: number;
  /** Unix seconds the request was started. */
  created: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** GET /webhook-endpoints/{id}/deliveries: one public event to one endpoint, with every attempt. */
export interface WebhookDeliveryObject {
  id: string;
  created: number;
  objectType: 'webhookDelivery';
  endpointId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed' | 'canceled';
  attempts: WebhookAttemptView[];
  /** Unix seconds of the next attempt while pending, else null. */
  nextAttemptAt: number | null;
}

export interface WebhookDeliveryDoc extends WebhookDeliveryObject {
  _seq: number;
  _accountId: string;
  _mode: Mode;
}

/** Per account and mode, the endpoints and what they subscribe to, as of the event being projected. */
interface SubscriptionsDoc {
  /** `<accountId>:<mode>`. */
  id: string;
  created: number;
  endpoints: { endpointId: string; events: string[]; enabled: boolean }[];
}

/** GET /webhook-endpoints/{id}/deliveries (filters: endpointId, status, eventId). */
export const webhookDeliveriesCollection = objectCollection<WebhookDeliveryDoc>(
  'webhook_deliveries',
  'Webhook delivery',
  scopedIndexes('endpointId', 'status', 'eventId'),
);
const subscriptionsCollection = readModelCollection<SubscriptionsDoc>('webhook_subscriptions');

/** What endpoints subscribe to, and the attempts the worker records. */
const ownEvents = eventDispatch<WebhookEndpointEvent | WebhookDeliveryEvent>({
  WebhookEndpointCreated: updateSubscriptions,
  WebhookEndpointUpdated: updateSubscriptions,
  WebhookEndpointDeleted: updateSubscriptions,
  WebhookEndpointDisabledAutomatically: updateSubscriptions,
  // The count of failed deliveries changes no subscription.
  WebhookEndpointDeliveryFailed: async () => undefined,
  WebhookEndpointFailuresCleared: async () => undefined,
  WebhookDeliveryAttempted: recordDeliveryEvent,
  WebhookDeliveryCanceled: recordDeliveryEvent,
  WebhookDeliveryResent: recordDeliveryEvent,
});

/**
 * `webhook-deliveries`: turns every public event into one delivery per endpoint of its account and
 * mode that is enabled and subscribes to its type at that point of the log (so an endpoint gets
 * only the events after its creation), and folds the attempts recorded by the worker into each
 * delivery. Deliveries are derived from the log, never from the queue (`docs/architecture.md`, "Jobs are derived from state"): a rebuild
 * gives them back, each pending one with its next attempt in `webhook_due`. The public events are
 * those of `publicObjects` (the resource list's), computed by the `events` projection's own code from the same object views (read as of the
 * event, projected together with this one), so no copy of any object is kept here.
 */
export function webhookDeliveriesProjection(publicObjects: readonly PublicObjectEvents[]): Projection {
  const producesPublicEvents = (type: string) => publicObjects.some((object) => object.changes(type));
  return {
    name: 'webhook-deliveries',
    collections: ownedCollections(webhookDeliveriesCollection, webhookDueCollection, subscriptionsCollection),
    reads: publicObjectSources(publicObjects),
    handles: (type) => ownEvents.handles(type) || producesPublicEvents(type),
    async apply(event: RecordedEvent, tx: ProjectionTransaction) {
      if (ownEvents.handles(event.type)) return ownEvents.apply(event, tx);
      // Without an enabled endpoint in the event's account and mode there is nothing to deliver.
      const endpoints = (await tx.get(subscriptionsCollection, tenantKey(event)))?.endpoints.filter(
        (endpoint) => endpoint.enabled,
      );
      if (!endpoints?.length) return;
      for (const publicEvent of await producedPublicEvents(publicObjects, event, tx)) {
        for (const endpoint of endpoints) {
          if (endpoint.events.length > 0 && !endpoint.events.includes(publicEvent.type)) continue;
          createDelivery(endpoint.endpointId, publicEvent, event, tx);
        }
      }
    },
  };
}

/** Delivery ids are derived, so a rebuild (or a second fan-out) gives the same delivery. */
export const webhookDeliveryId = (endpointId: string, eventId: string): string =>
  deterministicId('wd', `${endpointId}:${eventId}`);

function createDelivery(
  endpointId: string,
  publicEvent: ProducedPublicEvent,
  source: RecordedEvent,
  tx: ProjectionTransaction,
): void {
  const accountId = source.metadata.accountId;
  const mode = source.metadata.mode;
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
    _accountId: accountId,
    _mode: mode,
    _seq: publicEvent._seq,
  };
  tx.put(webhookDeliveriesCollection, delivery);
  tx.put(
    webhookDueCollection,
    webhookDueDoc(
      {
        deliveryId,
        endpointId,
        eventId: publicEvent.id,
        eventType: publicEvent.type,
        attempt: 1,
        dueAtMs,
        accountId,
        mode,
      },
      delivery._seq,
    ),
  );
}

async function recordDeliveryEvent(
  event: ProjectedEvent<WebhookDeliveryEvent>,
  tx: ProjectionTransaction,
): Promise<void> {
  const { deliveryId } = event.data;
  const current = (await tx.get(webhookDeliveriesCollection, deliveryId)) ?? deliveryFromEvent(event);
  switch (event.type) {
    case 'WebhookDeliveryAttempted': {
      const { attempt, attemptedAt, statusCode, durationMs, error, outcome, nextAttemptAt } = event.data;
      const attempts = [
        ...current.attempts.filter((known) => known.attempt !== attempt),
        { attempt, created: isoSeconds(attemptedAt), statusCode, durationMs, error },
      ];
      tx.put(webhookDeliveriesCollection, {
        ...current,
        attempts,
        status: outcome === 'retrying' ? 'pending' : outcome,
        nextAttemptAt: nextAttemptAt === null ? null : isoSeconds(nextAttemptAt),
      });
      if (nextAttemptAt === null) {
        tx.delete(webhookDueCollection, deliveryId);
      } else {
        const { endpointId, eventId, eventType } = event.data;
        const dueAtMs = Date.parse(nextAttemptAt);
        tx.put(
          webhookDueCollection,
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
            event.position * 16,
          ),
        );
      }
      return;
    }
    case 'WebhookDeliveryCanceled':
      tx.put(webhookDeliveriesCollection, { ...current, status: 'canceled', nextAttemptAt: null });
      tx.delete(webhookDueCollection, deliveryId);
      return;
    case 'WebhookDeliveryResent': {
      const { endpointId, eventId, eventType, attempt, requestedAt } = event.data;
      tx.put(webhookDeliveriesCollection, { ...current, status: 'pending', nextAttemptAt: isoSeconds(requestedAt) });
      tx.put(
        webhookDueCollection,
        webhookDueDoc(
          {
            deliveryId,
            endpointId,
            eventId,
            eventType,
            attempt,
            dueAtMs: Date.parse(requestedAt),
            accountId: current._accountId,
            mode: current._mode,
          },
          event.position * 16,
        ),
      );
      return;
    }
  }
}

/** A delivery whose creation this build has not seen (should not happen): rebuilt from its own event. */
function deliveryFromEvent(event: ProjectedEvent<WebhookDeliveryEvent>): WebhookDeliveryDoc {
  return {
    id: event.data.deliveryId,
    created: occurredAtSeconds(event),
    objectType: 'webhookDelivery',
    endpointId: event.data.endpointId,
    eventId: event.data.eventId,
    eventType: event.data.eventType,
    status: 'pending',
    attempts: [],
    nextAttemptAt: null,
    _accountId: event.metadata.accountId,
    _mode: event.metadata.mode,
    _seq: event.position * 16,
  };
}

async function updateSubscriptions(
  event: ProjectedEvent<WebhookEndpointEvent>,
  tx: ProjectionTransaction,
): Promise<void> {
  const id = tenantKey(event);
  const current = (await tx.get(subscriptionsCollection, id)) ?? { id, created: 0, endpoints: [] };
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
      return;
  }
  tx.put(subscriptionsCollection, { ...current, endpoints });
}

const tenantKey = (event: RecordedEvent): string => `${event.metadata.accountId}:${event.metadata.mode}`;

const isoSeconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);
