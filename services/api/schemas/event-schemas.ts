import { z } from 'zod';
import { p } from '../../../packages/http/params.ts';

/** Every public event type of the spec (spec: Events). */
export const publicEventTypeNames = [
  'CHARGE_SUCCEEDED',
  'CHARGE_FAILED',
  'CHARGE_UPDATED',
  'CHARGE_CAPTURED',
  'CHARGE_REFUNDED',
  'CHARGE_DISPUTE_CREATED',
  'CHARGE_DISPUTE_UPDATED',
  'CHARGE_DISPUTE_WON',
  'CHARGE_DISPUTE_LOST',
  'CHARGE_DISPUTE_FUNDS_WITHDRAWN',
  'CHARGE_DISPUTE_FUNDS_RESTORED',
  'CUSTOMER_CREATED',
  'CUSTOMER_UPDATED',
  'CUSTOMER_DELETED',
  'CUSTOMER_CARD_CREATED',
  'CUSTOMER_CARD_UPDATED',
  'CUSTOMER_CARD_DELETED',
  'CUSTOMER_SUBSCRIPTION_CREATED',
  'CUSTOMER_SUBSCRIPTION_UPDATED',
  'CUSTOMER_SUBSCRIPTION_DELETED',
  'PLAN_CREATED',
  'PLAN_UPDATED',
  'PLAN_DELETED',
  'CROSS_SALE_OFFER_CREATED',
  'CROSS_SALE_OFFER_UPDATED',
  'CROSS_SALE_OFFER_DELETED',
] as const;

export const listEventsQuery = p.listQuery({
  type: p.enum(publicEventTypeNames, { description: 'Only events of this type' }).optional(),
});

export const eventIdParams = z.object({ eventId: z.string().meta({ description: 'Event id (event_…)' }) });

export const eventSchema = z
  .object({
    id: z.string(),
    created: z.number().int().meta({ description: 'When the event was recorded (real time), Unix seconds' }),
    objectType: z.literal('event'),
    type: z.enum(publicEventTypeNames),
    data: z
      .record(z.string(), z.unknown())
      .meta({ description: 'The object the event concerns, as it stood after the change' }),
    log: z.string().meta({ description: 'Event log reference (log_…): events of one request share it' }),
    testClockTime: z
      .number()
      .int()
      .optional()
      .meta({ description: "Events of test-clock customers only: the clock's time when it happened, Unix seconds" }),
  })
  .meta({ id: 'Event' });
