import { z } from 'zod';
import { p } from '../../../packages/http/params.ts';

/** The response schema of a kind of object that public events carry as `data`: told apart by its `objectType`. */
export type EventDataSchema = z.core.$ZodTypeDiscriminable;

/**
 * Every public event type and every kind of object their `data` may be, derived from the resource
 * list (`services/resources/registries.ts`): the routes of events and webhook endpoints take them
 * from there, so a new resource's public events need no edit here.
 */
export interface PublicEventCatalog {
  /** Every public event type (spec: Events), in documentation order. */
  readonly types: readonly [string, ...string[]];
  /** The response schema of each kind of object a public event carries, in the resource list's order. */
  readonly dataSchemas: readonly [EventDataSchema, ...EventDataSchema[]];
}

export const eventIdParams = z.object({ eventId: z.string().meta({ description: 'Event id (event_…)' }) });

/** The query of GET /events and the event object, for the public events of `catalog`. */
export function eventSchemas({ types, dataSchemas }: PublicEventCatalog) {
  const listEventsQuery = p.listQuery({
    type: p.enum(types, { description: 'Only events of this type' }).optional(),
  });

  const eventSchema = z
    .object({
      id: z.string(),
      created: z.number().int().meta({ description: 'When the event was recorded (real time), Unix seconds' }),
      objectType: z.literal('event'),
      type: z.enum(types),
      data: z
        .discriminatedUnion('objectType', dataSchemas)
        .meta({ description: 'The object the event concerns, as it stood after the change (by its objectType)' }),
      log: z.string().meta({ description: 'Event log reference (log_…): events of one request share it' }),
      testClockTime: z
        .number()
        .int()
        .optional()
        .meta({ description: "Events of test-clock customers only: the clock's time when it happened, Unix seconds" }),
    })
    .meta({ id: 'Event' });

  return { listEventsQuery, eventSchema };
}
