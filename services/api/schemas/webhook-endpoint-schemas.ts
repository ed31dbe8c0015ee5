import { z } from 'zod';
import { p } from '../../../packages/http/params.ts';
import { MAX_WEBHOOK_URL_LENGTH, webhookUrlProblem } from '../../../packages/webhooks/webhook-destination.ts';
import type { PublicEventCatalog } from './event-schemas.ts';

/** Shape only; the live-mode rules (https, public addresses) are checked by the command. */
const webhookUrl = () =>
  z
    .string({ error: 'must be a string' })
    .max(MAX_WEBHOOK_URL_LENGTH, { error: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters long` })
    .superRefine((url, ctx) => {
      const problem = webhookUrlProblem(url, null);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .meta({
      description:
        'Where events are POSTed: an http or https URL. Live mode requires https and a host whose addresses are all public.',
      example: 'https://example.com/webhooks/payments',
    });

const eventTypes = (types: PublicEventCatalog['types']) =>
  z
    .array(p.enum(types), { error: 'must be a list of event types' })
    .max(types.length, { error: `must have at most ${types.length} items` })
    .meta({
      description: 'Public event types to receive; empty or absent: every type',
      example: ['CHARGE_SUCCEEDED', 'CHARGE_REFUNDED'],
    });

export const listWebhookEndpointsQuery = p.listQuery({
  deleted: p.bool({ description: 'true lists only deleted endpoints; default false' }).optional(),
});

export const webhookEndpointIdParams = z.object({
  endpointId: z.string().meta({ description: 'Webhook endpoint id (we_…)' }),
});

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed', 'canceled'] as const;

export const listWebhookDeliveriesQuery = p.listQuery({
  status: p.enum(webhookDeliveryStatuses, { description: 'Only deliveries in this status' }).optional(),
  eventId: p.string({ min: 1, max: 255, description: 'Only the delivery of this event' }).optional(),
});

/** The bodies and objects of webhook endpoints and deliveries, which name the public event types of `catalog`. */
export function webhookEndpointSchemas({ types }: PublicEventCatalog) {
  const createWebhookEndpointBody = p.object({
    url: webhookUrl(),
    events: eventTypes(types).optional(),
    description: p.string({ max: 1024 }).optional(),
    enabled: p.bool({ description: 'Whether events are sent to it; default true' }).optional(),
  });

  const updateWebhookEndpointBody = p.object({
    url: webhookUrl().optional(),
    events: eventTypes(types).optional(),
    description: p.string({ max: 1024 }).nullable().optional(),
    enabled: p.bool({ description: 'false stops deliveries; pending ones are canceled' }).optional(),
  });

  const webhookEndpointSchema = z
    .object({
      id: z.string(),
      created: z.number().int(),
      objectType: z.literal('webhookEndpoint'),
      url: z.string(),
      events: z.array(z.enum(types)).meta({ description: 'Subscribed event types; empty: every type' }),
      description: z.string().nullable(),
      enabled: z.boolean(),
      deleted: z.literal(true).optional(),
    })
    .meta({ id: 'WebhookEndpoint' });

  const createdWebhookEndpointSchema = webhookEndpointSchema
    .extend({
      secret: z.string().meta({
        description: 'Signing secret (whsec_…): shown only in this answer; verify the Shift4-Signature header with it',
      }),
    })
    .meta({ id: 'CreatedWebhookEndpoint' });

  const webhookDeliverySchema = z
    .object({
      id: z.string(),
      created: z.number().int(),
      objectType: z.literal('webhookDelivery'),
      endpointId: z.string(),
      eventId: z.string(),
      eventType: z.enum(types),
      status: z.enum(webhookDeliveryStatuses),
      attempts: z.array(
        z.object({
          attempt: z.number().int().meta({ description: '1 for the first attempt' }),
          created: z.number().int().meta({ description: 'When the request was started (Unix seconds)' }),
          statusCode: z
            .number()
            .int()
            .nullable()
            .meta({ description: "The endpoint's HTTP status; null when no answer arrived in time" }),
          durationMs: z.number().int(),
          error: z.string().nullable().meta({
            description: 'Why no answer arrived (timeout, connection refused, refused address); null when one did',
          }),
        }),
      ),
      nextAttemptAt: z
        .number()
        .int()
        .nullable()
        .meta({ description: 'When the next attempt is due (Unix seconds) while pending; else null' }),
    })
    .meta({ id: 'WebhookDelivery', description: 'One event sent to one endpoint, with every attempt.' });

  return {
    createWebhookEndpointBody,
    updateWebhookEndpointBody,
    webhookEndpointSchema,
    createdWebhookEndpointSchema,
    webhookDeliverySchema,
  };
}
