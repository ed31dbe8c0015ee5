import {
  webhookEndpointEventTypes,
  type WebhookEndpointEvent,
} from '../../packages/domain/webhook-endpoint/webhook-endpoint-events.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import type { ObjectView } from './object-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';

/** `{ id, created, objectType, url, events, description, enabled, deleted? }`: never the secret. */
export interface WebhookEndpointDoc extends Document {
  objectType: 'webhookEndpoint';
  url: string;
  /** Subscribed public event types; empty: all of them. */
  events: string[];
  description: string | null;
  enabled: boolean;
  deleted?: true;
  _accountId: string;
  _mode: Mode;
  _deleted: boolean;
}

export const webhookEndpointView: ObjectView<WebhookEndpointDoc> = {
  eventTypes: new Set(webhookEndpointEventTypes),
  objectId: (event) => (event.data as { endpointId?: string }).endpointId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & WebhookEndpointEvent;
    switch (event.type) {
      case 'WebhookEndpointCreated': {
        const { endpointId, url, events, description, enabled } = event.data;
        return {
          id: endpointId,
          created: occurredAtSeconds(recorded),
          objectType: 'webhookEndpoint',
          url,
          events: [...events],
          description,
          enabled,
          ...tenantFields(recorded),
          _deleted: false,
        };
      }
      case 'WebhookEndpointUpdated': {
        if (!current) return current;
        const { endpointId: _endpointId, ...changes } = event.data;
        return { ...current, ...changes };
      }
      case 'WebhookEndpointDeleted':
        // Soft delete: still readable, with deleted: true; its deliveries stay listable.
        return current ? { ...current, deleted: true, _deleted: true } : current;
      case 'WebhookEndpointDisabledAutomatically':
        return current ? { ...current, enabled: false } : current;
      default:
        return current;
    }
  },
};
