import {
  webhookDeliveryDecider,
  type WebhookDeliveryCommand,
} from '../../../packages/domain/webhook-delivery/webhook-delivery-decider.ts';
import type {
  WebhookDeliveryEvent,
  WebhookDeliveryRef,
} from '../../../packages/domain/webhook-delivery/webhook-delivery-events.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(webhookDeliveryDecider);
const delivery: WebhookDeliveryRef = {
  deliveryId: 'wd_1',
  endpointId: 'we_1',
  eventId: 'event_1',
  eventType: 'CHARGE_SUCCEEDED',
};
const schedule = [200, 400, 800];
const at = '2030-01-01T00:00:00.000Z';

const attempt = (number: number, statusCode: number | null, error: string | null = null): WebhookDeliveryCommand => ({
  type: 'RecordWebhookAttempt',
  delivery,
  attempt: number,
  attemptedAt: at,
  statusCode,
  durationMs: 12,
  error,
  retryDelaysMs: schedule,
});

const attempted = (
  number: number,
  statusCode: number | null,
  outcome: 'delivered' | 'retrying' | 'failed',
  nextAttemptAt: string | null,
  error: string | null = null,
): WebhookDeliveryEvent => ({
  type: 'WebhookDeliveryAttempted',
  data: { ...delivery, attempt: number, attemptedAt: at, statusCode, durationMs: 12, error, outcome, nextAttemptAt },
});

describe('webhook delivery decider', () => {
  it('records a 2xx answer as delivered', () => {
    spec([])
      .when(attempt(1, 204))
      .then([attempted(1, 204, 'delivered', null)]);
  });

  it('schedules the next attempt after a failure, by the n-th delay of the schedule', () => {
    spec([])
      .when(attempt(1, 500))
      .then([attempted(1, 500, 'retrying', '2030-01-01T00:00:00.212Z')]);
    spec([attempted(1, 500, 'retrying', 'x')])
      .when(attempt(2, null, 'connection refused'))
      .then([attempted(2, null, 'retrying', '2030-01-01T00:00:00.412Z', 'connection refused')]);
    spec([attempted(1, 500, 'retrying', 'x'), attempted(2, 500, 'retrying', 'x')])
      .when(attempt(3, 302))
      .then([attempted(3, 302, 'retrying', '2030-01-01T00:00:00.812Z')]);
  });

  it('gives up once the schedule is used up', () => {
    const failures = [1, 2, 3].map((number) => attempted(number, 500, 'retrying', 'x'));
    spec(failures)
      .when(attempt(4, 500))
      .then([attempted(4, 500, 'failed', null)]);
  });

  it('records nothing for an attempt already recorded, out of turn, or after the end', () => {
    spec([attempted(1, 500, 'retrying', 'x')])
      .when(attempt(1, 500))
      .then([]);
    spec([]).when(attempt(2, 500)).then([]);
    spec([attempted(1, 200, 'delivered', null)])
      .when(attempt(2, 200))
      .then([]);
  });

  it('cancels a pending delivery once', () => {
    const canceled: WebhookDeliveryEvent = {
      type: 'WebhookDeliveryCanceled',
      data: { ...delivery, reason: 'endpoint_deleted' },
    };
    spec([attempted(1, 500, 'retrying', 'x')])
      .when({ type: 'CancelWebhookDelivery', delivery, reason: 'endpoint_deleted' })
      .then([canceled]);
    spec([canceled]).when({ type: 'CancelWebhookDelivery', delivery, reason: 'endpoint_deleted' }).then([]);
    spec([attempted(1, 200, 'delivered', null)])
      .when({ type: 'CancelWebhookDelivery', delivery, reason: 'endpoint_disabled' })
      .then([]);
  });

  it("resends a failed delivery at an operator's request: pending again, its next attempt due, and that attempt follows the schedule", () => {
    const failed = [
      attempted(1, 500, 'retrying', 'x'),
      attempted(2, 500, 'retrying', 'x'),
      attempted(3, 500, 'retrying', 'x'),
      attempted(4, 500, 'failed', null),
    ];
    const resend: WebhookDeliveryCommand = { type: 'ResendWebhookDelivery', delivery, requestedAt: at };
    const resent: WebhookDeliveryEvent = {
      type: 'WebhookDeliveryResent',
      data: { ...delivery, attempt: 5, requestedAt: at },
    };
    spec(failed).when(resend).then([resent]);
    spec([...failed, resent])
      .when(attempt(5, 200))
      .then([attempted(5, 200, 'delivered', null)]);
    spec([...failed, resent])
      .when(attempt(5, 500))
      .then([attempted(5, 500, 'failed', null)]);
  });

  it('resends nothing of a delivery that has not failed: pending, delivered, canceled or already resent', () => {
    const resend: WebhookDeliveryCommand = { type: 'ResendWebhookDelivery', delivery, requestedAt: at };
    spec([]).when(resend).then([]);
    spec([attempted(1, 200, 'delivered', null)])
      .when(resend)
      .then([]);
    spec([{ type: 'WebhookDeliveryCanceled', data: { ...delivery, reason: 'endpoint_deleted' } }])
      .when(resend)
      .then([]);
    spec([
      attempted(1, 500, 'failed', null),
      { type: 'WebhookDeliveryResent', data: { ...delivery, attempt: 2, requestedAt: at } },
    ])
      .when(resend)
      .then([]);
  });
});
