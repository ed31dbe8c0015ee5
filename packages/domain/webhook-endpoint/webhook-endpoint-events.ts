import { streamName } from '../resources.ts';
import type { DomainEvent } from '../decider.ts';
import { everyType } from '../event-types.ts';

/** Stream of one webhook endpoint: `webhookEndpoint-<endpointId>`. */
export const webhookEndpointStream = (endpointId: string): string => streamName('webhookEndpoint', endpointId);

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

export type WebhookEndpointEvent = WebhookEndpointCreated | WebhookEndpointUpdated | WebhookEndpointDeleted;

export const webhookEndpointEventTypes = everyType<WebhookEndpointEvent>()([
  'WebhookEndpointCreated',
  'WebhookEndpointUpdated',
  'WebhookEndpointDeleted',
]);
