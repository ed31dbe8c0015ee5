import { z } from 'zod';
import { p } from '../../../packages/http/params.ts';
import { publicEventTypeNames } from '../../../projections/public-event-types.ts';
import { cardSchema } from './card-schemas.ts';
import { chargeSchema } from './charge-schemas.ts';
import { crossSaleOfferSchema } from './cross-sale-offer-schemas.ts';
import { customerSchema } from './customer-schemas.ts';
import { disputeSchema } from './dispute-schemas.ts';
import { fraudWarningSchema } from './fraud-warning-schemas.ts';
import { planSchema } from './plan-schemas.ts';
import { subscriptionSchema } from './subscription-schemas.ts';

/** Every public event type of the spec (spec: Events), as the resources' read sides declare them. */
export { publicEventTypeNames };

export const listEventsQuery = p.listQuery({
  type: p.enum(publicEventTypeNames, { description: 'Only events of this type' }).optional(),
});

export const eventIdParams = z.object({ eventId: z.string().meta({ description: 'Event id (event_…)' }) });

export const eventSchema = z
  .object({
    id: z.string(),
    created: z.number().int(),
    objectType: z.literal('event'),
    type: z.enum(publicEventTypeNames),
    data: z
      .discriminatedUnion('objectType', [
        chargeSchema,
        disputeSchema,
        fraudWarningSchema,
        customerSchema,
        cardSchema,
        planSchema,
        subscriptionSchema,
        crossSaleOfferSchema,
      ])
      .meta({ description: 'The object the event concerns, as it stood after the change (by its objectType)' }),
    log: z.string().meta({ description: 'Event log reference (log_…): events of one request share it' }),
  })
  .meta({ id: 'Event' });
