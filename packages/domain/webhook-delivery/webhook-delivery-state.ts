import type { WebhookDeliveryEvent } from './webhook-delivery-events.ts';

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed' | 'canceled';

/** A delivery exists (pending) before its first event: the public event and the subscription make it. */
export interface WebhookDeliveryState {
  status: WebhookDeliveryStatus;
  /** Attempts recorded so far. */
  attempts: number;
}

export const initialWebhookDeliveryState = (): WebhookDeliveryState => ({ status: 'pending', attempts: 0 });

export function evolveWebhookDelivery(state: WebhookDeliveryState, event: WebhookDeliveryEvent): WebhookDeliveryState {
  switch (event.type) {
    case 'WebhookDeliveryAttempted':
      return {
        attempts: event.data.attempt,
        status: event.data.outcome === 'retrying' ? 'pending' : event.data.outcome,
      };
    case 'WebhookDeliveryCanceled':
      return { ...state, status: 'canceled' };
    case 'WebhookDeliveryResent':
      return { ...state, status: 'pending' };
  }
}
