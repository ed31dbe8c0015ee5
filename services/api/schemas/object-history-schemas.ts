import { z } from 'zod';
import { p } from '../../../packages/http/params.ts';

export const objectIdParams = z.object({
  objectId: z.string().meta({ description: 'Id of any object of the account: charge, customer, card, subscription…' }),
});

export const listObjectHistoryQuery = p.listQuery({});

/** One domain event of an object's stream, as auditors read it (`docs/audit.md`). */
export const historyEntrySchema = z
  .object({
    id: z.string().meta({ description: 'Id of the domain event' }),
    objectType: z.literal('history_entry'),
    created: z.number().int().meta({ description: 'When it happened (business time, Unix seconds)' }),
    type: z.string().meta({ description: 'Domain event type (docs/events.md), e.g. ChargeSucceeded' }),
    revision: z.number().int().meta({ description: 'Place of the event in its stream, from 0' }),
    actor: z
      .string()
      .nullable()
      .meta({ description: 'Id of the API key that acted (never the key), or system:<process> for background work' }),
    requestId: z.string().nullable().meta({ description: 'Request (or job) that caused the event' }),
    idempotencyKey: z.string().nullable(),
    data: z.record(z.string(), z.unknown()).meta({ description: 'The event data in its current shape' }),
    hash: z.string().nullable().meta({
      description: 'Tamper-evidence hash chaining the event to the previous one of its stream (docs/audit.md)',
    }),
  })
  .meta({ id: 'HistoryEntry' });
