import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { commandContext } from '../request-command-context.ts';
import { listFilteredByCustomer } from '../customer-list.ts';
import { paymentMethodsCollection as collection } from '../../../projections/payment-methods-projection.ts';
import { deletedSchema, listOf } from '../schemas/common-schemas.ts';
import {
  createPaymentMethodBody,
  listPaymentMethodsQuery,
  paymentMethodIdParams,
  paymentMethodSchema,
} from '../schemas/payment-method-schemas.ts';

const tag = 'Payment methods';

export function paymentMethodRoutes({ commands, reader }: ApiDependencies): AnyRouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/payment-methods',
      summary: 'Create a payment method (status chargeable)',
      tag,
      body: createPaymentMethodBody,
      response: paymentMethodSchema,
      async handler(request) {
        const outcome = await commands.paymentMethods.create(request.body, commandContext(request));
        return reader.getAfter(outcome.position, collection, outcome.id, request.auth);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/payment-methods/:paymentMethodId',
      summary: 'Retrieve a payment method (deleted ones are returned with deleted: true)',
      tag,
      params: paymentMethodIdParams,
      response: paymentMethodSchema,
      handler: (request) => reader.get(collection, request.params.paymentMethodId, request.auth),
    }),
    defineRoute({
      method: 'delete',
      path: '/payment-methods/:paymentMethodId',
      summary: 'Delete a payment method (soft delete: still readable with deleted: true, status canceled)',
      tag,
      params: paymentMethodIdParams,
      response: deletedSchema,
      async handler(request) {
        // Another tenant's payment method must be a 404 before anything else is looked at.
        await reader.get(collection, request.params.paymentMethodId, request.auth);
        const outcome = await commands.paymentMethods.delete(request.params.paymentMethodId, commandContext(request));
        await reader.getAfter(outcome.position, collection, outcome.id, request.auth);
        return { id: outcome.id };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/payment-methods',
      summary: 'List payment methods, newest first',
      tag,
      query: listPaymentMethodsQuery,
      response: listOf(paymentMethodSchema),
      handler: (request) => {
        const { deleted, ...page } = request.query;
        return listFilteredByCustomer(reader, collection, request.auth, page, { _deleted: deleted ?? false });
      },
    }),
  ];
}
