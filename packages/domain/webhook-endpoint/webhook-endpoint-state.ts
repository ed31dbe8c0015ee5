import type { WebhookEndpoint, WebhookEndpointEvent } from './webhook-endpoint-events.ts';

export type WebhookEndpointState =
  | { status: 'none' }
  | {
      status: 'active' | 'deleted';
      endpoint: WebhookEndpoint;
      /** Deliveries failed for good since the last one that succeeded (or since it was enabled). */
      failedInARow: number;
    };

export const initialWebhookEndpointState = (): WebhookEndpointState => ({ status: 'none' });

export function evolveWebhookEndpoint(state: WebhookEndpointState, event: WebhookEndpointEvent): WebhookEndpointState {
  switch (event.type) {
    case 'WebhookEndpointCreated':
      return { status: 'active', endpoint: { ...event.data, events: [...event.data.events] }, failedInARow: 0 };
    case 'WebhookEndpointUpdated': {
      if (state.status === 'none') return state;
      const { endpointId: _endpointId, ...changes } = event.data;
      // Enabled again by its owner: the count of failures starts afresh.
      const failedInARow = changes.enabled === true ? 0 : state.failedInARow;
      return { ...state, endpoint: { ...state.endpoint, ...changes }, failedInARow };
    }
    case 'WebhookEndpointDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
    case 'WebhookEndpointDeliveryFailed':
      return state.status === 'none' ? state : { ...state, failedInARow: event.data.failedInARow };
    case 'WebhookEndpointFailuresCleared':
      return state.status === 'none' ? state : { ...state, failedInARow: 0 };
    case 'WebhookEndpointDisabledAutomatically':
      return state.status === 'none' ? state : { ...state, endpoint: { ...state.endpoint, enabled: false } };
  }
}
