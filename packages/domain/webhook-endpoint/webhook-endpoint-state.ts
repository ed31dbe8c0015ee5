import type { WebhookEndpoint, WebhookEndpointEvent } from './webhook-endpoint-events.ts';

export type WebhookEndpointState = { status: 'none' } | { status: 'active' | 'deleted'; endpoint: WebhookEndpoint };

export const initialWebhookEndpointState = (): WebhookEndpointState => ({ status: 'none' });

export function evolveWebhookEndpoint(state: WebhookEndpointState, event: WebhookEndpointEvent): WebhookEndpointState {
  switch (event.type) {
    case 'WebhookEndpointCreated':
      return { status: 'active', endpoint: { ...event.data, events: [...event.data.events] } };
    case 'WebhookEndpointUpdated': {
      if (state.status === 'none') return state;
      const { endpointId: _endpointId, ...changes } = event.data;
      return { ...state, endpoint: { ...state.endpoint, ...changes } };
    }
    case 'WebhookEndpointDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
  }
}
