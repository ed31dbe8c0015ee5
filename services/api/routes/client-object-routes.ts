import { z } from 'zod';
import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import { chargesCollection } from '../../../projections/charges-projection.ts';
import { clientObjectsCollection } from '../../../projections/client-objects-projection.ts';
import type { ApiDependencies } from '../api-dependencies.ts';

/** What a payer's page may know of a payment-method charge: no customer, card or metadata. */
export const clientChargeSchema = z
  .object({
    clientObjectId: z.string(),
    objectType: z.literal('charge'),
    amount: z.number().int(),
    currency: z.string(),
    status: z.enum(['successful', 'pending', 'failed']),
    flow: z.object({
      nextAction: z.enum(['redirect', 'wait', 'none']),
      returnUrl: z.string(),
      redirect: z.object({ redirectUrl: z.string() }).optional(),
    }),
    failureCode: z.string().optional(),
    failureMessage: z.string().optional(),
  })
  .meta({ id: 'ClientCharge' });

const CLIENT_FIELDS = [
  'clientObjectId',
  'objectType',
  'amount',
  'currency',
  'status',
  'flow',
  'failureCode',
  'failureMessage',
];

/**
 * GET /client-objects/{clientObjectId}: lets the client-side library (public key) follow a
 * payment-method charge's `flow.nextAction` and status, without the secret key.
 */
export function clientObjectRoutes({ reader }: ApiDependencies): AnyRouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/client-objects/:clientObjectId',
      summary: 'Follow a payment-method charge by its clientObjectId (public key allowed)',
      tag: 'Charges',
      auth: 'publicOrSecret',
      params: z.object({ clientObjectId: z.string().meta({ description: 'client_char_… of a charge' }) }),
      response: clientChargeSchema,
      async handler(request) {
        const { clientObjectId } = request.params;
        const { chargeId } = await reader.get(clientObjectsCollection, clientObjectId, request.auth);
        const charge = await reader.get(chargesCollection, chargeId, request.auth);
        return Object.fromEntries(Object.entries(charge).filter(([field]) => CLIENT_FIELDS.includes(field)));
      },
    }),
  ];
}
