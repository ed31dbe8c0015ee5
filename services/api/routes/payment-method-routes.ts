import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { commandContext } from '../command-context.ts';
import { deletedSchema, listOf } from '../schemas/common-schemas.ts';
import {
  createPaymentMethodBody,
  listPaymentMethodsQuery,
  paymentMethodIdParams,
  paymentMethodSchema,
} from '../schemas/payment-method-schemas.ts';

const tag = 'Payment methods';
const collection = 'payment_methods';
const objectName = 'Payment method';

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
        return reader.getAfter(outcome.position, collection, objectName, outcome.id, request.auth);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/payment-methods/:paymentMethodId',
      summary: 'Retrieve a payment method (deleted ones are returned with deleted: true)',
      tag,
      params: paymentMethodIdParams,
      response: paymentMethodSchema,
      handler: (request) => reader.get(collection, objectName, request.params.paymentMethodId, request.auth),
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
        await reader.get(collection, objectName, request.params.paymentMethodId, request.auth);
        const outcome = await commands.paymentMethods.delete(request.params.paymentMethodId, commandContext(request));
        await reader.getAfter(outcome.position, collection, objectName, outcome.id, request.auth);
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
      async handler(request) {
        const { customerId, deleted, ...page } = request.query;
        // An unknown customer in a parameter is a bad parameter (400), not an empty list.
        if (customerId !== undefined) {
          await reader.get('customers', 'Customer', customerId, request.auth).catch((error: unknown) => {
            throw error instanceof NotFoundError
              ? new InvalidRequestError(`Invalid parameter: customerId '${customerId}' does not exist`)
              : error;
          });
        }
        return reader.list(collection, request.auth, page, { customerId, _deleted: deleted ?? false });
      },
    }),
  ];
}
