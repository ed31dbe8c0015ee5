import type { WebhookEndpointEvent } from '../../packages/domain/webhook-endpoint/webhook-endpoint-events.ts';
import { occurredAtSeconds, tenantFields, type TenantScope } from '../event-time.ts';
import { objectView, fromEventAlone } from './object-view.ts';

/** `{ id, created, objectType, url, events, description, enabled, deleted? }`: never the secret. */
export interface WebhookEndpointObject {
  id: string;
  created: number;
  objectType: 'webhookEndpoint';
  url: string;
  /** Subscribed public event types; empty: all of them. */
  events: string[];
  description: string | null;
  enabled: boolean;
  deleted?: true;
}

export interface WebhookEndpointDoc extends WebhookEndpointObject, TenantScope {
  _deleted: boolean;
}

export const webhookEndpointView = objectView<WebhookEndpointDoc, WebhookEndpointEvent>({
  objectId: (event) => event.data.endpointId,
  on: {
    WebhookEndpointCreated: fromEventAlone((event) => {
      const { endpointId, url, events, description, enabled } = event.data;
      return {
        id: endpointId,
        created: occurredAtSeconds(event),
        objectType: 'webhookEndpoint',
        url,
        events: [...events],
        description,
        enabled,
        ...tenantFields(event),
        _deleted: false,
      };
    }),
    WebhookEndpointUpdated: (current, event) => {
      if (!current) return current;
      const { endpointId: _endpointId, ...changes } = event.data;
      return { ...current, ...changes };
    },
    // Soft delete: still readable, with deleted: true; its deliveries stay listable.
    WebhookEndpointDeleted: (current) => current && { ...current, deleted: true, _deleted: true },
    WebhookEndpointDisabledAutomatically: (current) => current && { ...current, enabled: false },
    // The count of failed deliveries is not part of the endpoint object.
    WebhookEndpointDeliveryFailed: (current) => current,
    WebhookEndpointFailuresCleared: (current) => current,
  },
});
