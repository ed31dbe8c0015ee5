import { z } from 'zod';
import { p } from '../../../packages/http/params.ts';
import { cardReferenceSchema, cardSchema } from './card-schemas.ts';

const email = () =>
  z
    .email({ error: 'must be a valid email address' })
    .max(255, { error: 'must be at most 255 characters long' })
    .meta({ description: 'Email address', example: 'user@example.com' });

const description = () => p.string({ max: 1024, description: 'Free text about the customer' }).nullable();

const card = () =>
  cardReferenceSchema.meta({
    description: 'A token (tok_…), a successful charge (char_…) or card details: saved as the default card',
  });

export const createCustomerBody = p.object({
  email: email(),
  description: description().optional(),
  card: card().optional(),
  metadata: p.metadata().optional(),
  testClockId: p
    .id('clock', {
      description:
        'Test mode only: the test clock the customer lives on (its time drives the customer and its subscriptions)',
    })
    .optional(),
});

export const updateCustomerBody = p.object({
  email: email().optional(),
  description: description().optional(),
  defaultCardId: p.string({ min: 1, max: 255, description: 'Card of this customer to make the default' }).optional(),
  card: card().optional(),
  metadata: p.metadata().optional(),
});

export const listCustomersQuery = p.listQuery({
  email: p.string({ max: 255, description: 'Only customers with this email' }).optional(),
  deleted: p.bool({ description: 'true lists only deleted customers; default false' }).optional(),
});

export const customerIdParams = z.object({ customerId: z.string().meta({ description: 'Customer id (cust_…)' }) });

export const customerSchema = z
  .object({
    id: z.string(),
    created: z.number().int(),
    objectType: z.literal('customer'),
    email: z.string(),
    description: z.string().nullable(),
    defaultCardId: z.string().nullable(),
    cards: z.array(cardSchema).meta({ description: 'The 10 most recent cards' }),
    metadata: z.record(z.string(), z.string()),
    testClockId: z.string().optional().meta({ description: 'Present for a customer living on a test clock' }),
    deleted: z.literal(true).optional(),
  })
  .meta({ id: 'Customer' });
