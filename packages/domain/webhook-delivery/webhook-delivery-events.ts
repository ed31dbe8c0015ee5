import { resourceIdentity, streamName } from '../resource-identity.ts';
import type { DomainEvent } from '../decider.ts';
import { everyType } from '../event-types.ts';

export const webhookDeliveryResource = resourceIdentity({ name: 'webhookDelivery', idPrefix: 'wd', stream: 'own' });

/** Stream of one delivery (one public event to one endpoint): `webhookDelivery-<deliveryId>`. */
export const webhookDeliveryStream = (deliveryId: string): string => streamName(webhookDeliveryResource, deliveryId);

/** Which public event goes to which endpoint: every event of a delivery repeats it. */
export interface WebhookDeliveryRef {
  deliveryId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
}

/**
 * - `delivered`: the endpoint answered 2xx in time;
 * - `retrying`: it did not, and another attempt is due at `nextAttemptAt`;
 * - `failed`: it did not, and the retry schedule is used up.
 */
export type AttemptOutcome = 'delivered' | 'retrying' | 'failed';

export type WebhookDeliveryAttempted = DomainEvent<
  'WebhookDeliveryAttempted',
  WebhookDeliveryRef & {
    /** 1 for the first attempt. */
    attempt: number;
    /** ISO-8601 time the request was started. */
    attemptedAt: string;
    /** The endpoint's HTTP status; null when no answer arrived. */
    statusCode: number | null;
    durationMs: number;
    /** Why no answer arrived (timeout, connection refused, refused address); null when one did. */
    error: string | null;
    outcome: AttemptOutcome;
    /** ISO-8601 time of the next attempt when retrying, else null. */
    nextAttemptAt: string | null;
  }
>;

/** The endpoint was deleted or disabled before the delivery was done: no further attempts. */
export type WebhookDeliveryCanceled = DomainEvent<
  'WebhookDeliveryCanceled',
  WebhookDeliveryRef & { reason: 'endpoint_deleted' | 'endpoint_disabled' }
>;

/**
 * An operator asked for a failed delivery to be sent again (the console's "resend"): it is pending
 * again, its next attempt (`attempt`) due at `requestedAt`. That attempt follows the retry schedule
 * like any other, so a failing resend is one attempt and the delivery has failed again.
 */
export type WebhookDeliveryResent = DomainEvent<
  'WebhookDeliveryResent',
  WebhookDeliveryRef & { attempt: number; requestedAt: string }
>;

export type WebhookDeliveryEvent = WebhookDeliveryAttempted | WebhookDeliveryCanceled | WebhookDeliveryResent;

export const webhookDeliveryEventTypes = everyType<WebhookDeliveryEvent>()([
  'WebhookDeliveryAttempted',
  'WebhookDeliveryCanceled',
  'WebhookDeliveryResent',
]);
