import { webhookDeliveryDecider } from '../domain/webhook-delivery/webhook-delivery-decider.ts';
import {
  webhookDeliveryStream,
  type WebhookDeliveryAttempted,
  type WebhookDeliveryRef,
} from '../domain/webhook-delivery/webhook-delivery-events.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CommandContext } from './command-context.ts';

export interface AttemptResult {
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** What recording an attempt decided; `recorded: false` when another run had recorded it already. */
export type RecordedAttempt =
  { recorded: true; data: WebhookDeliveryAttempted['data']; position: number | null } | { recorded: false };

/** Records the attempts of webhook deliveries, and their cancellation: the worker's commands. */
export class WebhookDeliveryCommands {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly retryDelaysMs: readonly number[],
  ) {}

  async recordAttempt(
    delivery: WebhookDeliveryRef,
    result: AttemptResult,
    context: CommandContext,
  ): Promise<RecordedAttempt> {
    const executed = await this.aggregates.execute(
      webhookDeliveryDecider,
      webhookDeliveryStream(delivery.deliveryId),
      {
        type: 'RecordWebhookAttempt',
        delivery,
        attempt: result.attempt,
        attemptedAt: result.attemptedAt.toISOString(),
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error,
        retryDelaysMs: this.retryDelaysMs,
      },
      context,
    );
    const event = executed.events[0];
    if (event?.type !== 'WebhookDeliveryAttempted') return { recorded: false };
    return { recorded: true, data: event.data, position: executed.position };
  }

  async cancel(
    delivery: WebhookDeliveryRef,
    reason: 'endpoint_deleted' | 'endpoint_disabled',
    context: CommandContext,
  ): Promise<void> {
    await this.aggregates.execute(
      webhookDeliveryDecider,
      webhookDeliveryStream(delivery.deliveryId),
      { type: 'CancelWebhookDelivery', delivery, reason },
      context,
    );
  }

  /** Sends a failed delivery again (operators); false when it was not failed, so nothing was recorded. */
  async resend(delivery: WebhookDeliveryRef, context: CommandContext): Promise<boolean> {
    const executed = await this.aggregates.execute(
      webhookDeliveryDecider,
      webhookDeliveryStream(delivery.deliveryId),
      { type: 'ResendWebhookDelivery', delivery, requestedAt: context.now().toISOString() },
      context,
    );
    return executed.events.length > 0;
  }
}
