import { resourceIdentity, streamName } from '../resource-identity.ts';
import type { DomainEvent } from '../decider.ts';
import { everyType } from '../event-types.ts';

export const webhookEndpointResource = resourceIdentity({ name: 'webhookEndpoint', idPrefix: 'we', stream: 'own' });

/** Stream of one webhook endpoint: `webhookEndpoint-<endpointId>`. */
export const webhookEndpointStream = (endpointId: string): string => streamName(webhookEndpointResource, endpointId);

/**
 * Where an account (in one mode) wants its public events POSTed. `events` lists the public event
 * types it subscribes to; empty means every type. The signing secret is only ever a vault
 * reference here.
 */
export interface WebhookEndpoint {
  endpointId: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  secretVaultRef: string;
}

export type WebhookEndpointCreated = DomainEvent<'WebhookEndpointCreated', WebhookEndpoint>;

/** Only the fields that changed. */
export type WebhookEndpointUpdated = DomainEvent<
  'WebhookEndpointUpdated',
  { endpointId: string } & Partial<Pick<WebhookEndpoint, 'url' | 'events' | 'description' | 'enabled'>>
>;

/** The secret's vault entry is erased at the same time. */
export type WebhookEndpointDeleted = DomainEvent<'WebhookEndpointDeleted', { endpointId: string }>;

/** A delivery to the endpoint failed for good (its retry schedule is used up). */
export type WebhookEndpointDeliveryFailed = DomainEvent<
  'WebhookEndpointDeliveryFailed',
  { endpointId: string; deliveryId: string; eventId: string; failedInARow: number }
>;

/** A delivery succeeded after deliveries had failed for good: the run of failures is over. */
export type WebhookEndpointFailuresCleared = DomainEvent<'WebhookEndpointFailuresCleared', { endpointId: string }>;

/** The endpoint was disabled by the service after `failedInARow` deliveries failed for good in a row. */
export type WebhookEndpointDisabledAutomatically = DomainEvent<
  'WebhookEndpointDisabledAutomatically',
  { endpointId: string; failedInARow: number }
>;

export type WebhookEndpointEvent =
  | WebhookEndpointCreated
  | WebhookEndpointUpdated
  | WebhookEndpointDeleted
  | WebhookEndpointDeliveryFailed
  | WebhookEndpointFailuresCleared
  | WebhookEndpointDisabledAutomatically;

export const webhookEndpointEventTypes = everyType<WebhookEndpointEvent>()([
  'WebhookEndpointCreated',
  'WebhookEndpointUpdated',
  'WebhookEndpointDeleted',
  'WebhookEndpointDeliveryFailed',
  'WebhookEndpointFailuresCleared',
  'WebhookEndpointDisabledAutomatically',
]);
