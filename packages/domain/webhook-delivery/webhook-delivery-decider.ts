import type { Decider } from '../decider.ts';
import { afterAttempt } from './retry-schedule.ts';
import type { WebhookDeliveryEvent, WebhookDeliveryRef } from './webhook-delivery-events.ts';
import {
  evolveWebhookDelivery,
  initialWebhookDeliveryState,
  type WebhookDeliveryState,
} from './webhook-delivery-state.ts';

/**
 * The request was sent before deciding (I/O); the decider records its outcome. Delivery is at
 * least once and jobs may run twice, so a command for an attempt that is already recorded, or for
 * a delivery that is over, records nothing instead of failing.
 */
export type WebhookDeliveryCommand =
  | {
      type: 'RecordWebhookAttempt';
      delivery: WebhookDeliveryRef;
      attempt: number;
      attemptedAt: string;
      statusCode: number | null;
      durationMs: number;
      error: string | null;
      /** The retry schedule in force (WEBHOOK_RETRY_DELAYS). */
      retryDelaysMs: readonly number[];
    }
  | { type: 'CancelWebhookDelivery'; delivery: WebhookDeliveryRef; reason: 'endpoint_deleted' | 'endpoint_disabled' }
  /** An operator's resend of a failed delivery (a delivery not failed is left as it is). */
  | { type: 'ResendWebhookDelivery'; delivery: WebhookDeliveryRef; requestedAt: string };

export const webhookDeliveryDecider: Decider<WebhookDeliveryCommand, WebhookDeliveryEvent, WebhookDeliveryState> = {
  initialState: initialWebhookDeliveryState,
  evolve: evolveWebhookDelivery,
  decide(command, state) {
    if (command.type === 'ResendWebhookDelivery') {
      if (state.status !== 'failed') return [];
      return [
        {
          type: 'WebhookDeliveryResent',
          data: { ...command.delivery, attempt: state.attempts + 1, requestedAt: command.requestedAt },
        },
      ];
    }
    if (state.status !== 'pending') return [];
    switch (command.type) {
      case 'RecordWebhookAttempt': {
        if (command.attempt !== state.attempts + 1) return [];
        const { outcome, nextAttemptAt } = afterAttempt(
          command.attempt,
          command.statusCode,
          { attemptedAt: command.attemptedAt, durationMs: command.durationMs },
          command.retryDelaysMs,
        );
        return [
          {
            type: 'WebhookDeliveryAttempted',
            data: {
              ...command.delivery,
              attempt: command.attempt,
              attemptedAt: command.attemptedAt,
              statusCode: command.statusCode,
              durationMs: command.durationMs,
              error: command.error,
              outcome,
              nextAttemptAt,
            },
          },
        ];
      }
      case 'CancelWebhookDelivery':
        return [{ type: 'WebhookDeliveryCanceled', data: { ...command.delivery, reason: command.reason } }];
    }
  },
};
