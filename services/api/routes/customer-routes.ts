import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import { commandContext } from '../request-command-context.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { deletedSchema, listOf } from '../schemas/common-schemas.ts';
import {
  createCustomerBody,
  customerIdParams,
  customerSchema,
  listCustomersQuery,
  updateCustomerBody,
} from '../schemas/customer-schemas.ts';
import type { Tenant } from '../../../packages/domain/tenant.ts';
import { customersCollection } from '../../../projections/customers-projection.ts';

const tag = 'Customers';

export function customerRoutes({ commands, reader }: ApiDependencies): AnyRouteDefinition[] {
  const readCustomer = (position: number | null, id: string, request: { auth: Tenant }) =>
    reader.getAfter(position, customersCollection, id, request.auth);

  return [
    defineRoute({
      method: 'post',
      path: '/customers',
      summary: 'Create a customer',
      tag,
      body: createCustomerBody,
      response: customerSchema,
      async handler(request) {
        // A customer on a test clock lives on its time from the start (its `created` follows the clock).
        const { testClockId } = request.body;
        if (testClockId !== undefined) await commands.customerClock.requireUsable(testClockId, request.auth);
        const context = await commands.customerClock.onClock(testClockId, commandContext(request));
        const outcome = await commands.customers.create(request.body, context);
        return readCustomer(outcome.position, outcome.id, request);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/customers/:customerId',
      summary: 'Retrieve a customer (deleted customers are returned with deleted: true)',
      tag,
      params: customerIdParams,
      response: customerSchema,
      handler: (request) => reader.get(customersCollection, request.params.customerId, request.auth),
    }),
    defineRoute({
      method: 'post',
      path: '/customers/:customerId',
      summary: 'Update a customer; only the given parameters change',
      tag,
      params: customerIdParams,
      body: updateCustomerBody,
      response: customerSchema,
      async handler(request) {
        // Another tenant's customer must be a 404 before anything else is looked at.
        await reader.get(customersCollection, request.params.customerId, request.auth);
        const context = await commands.customerClock.forCustomer(request.params.customerId, commandContext(request));
        const outcome = await commands.customers.update(request.params.customerId, request.body, context);
        return readCustomer(outcome.position, outcome.id, request);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/customers/:customerId',
      summary: 'Delete a customer (soft delete: still readable with deleted: true)',
      tag,
      params: customerIdParams,
      response: deletedSchema,
      async handler(request) {
        const context = await commands.customerClock.forCustomer(request.params.customerId, commandContext(request));
        const outcome = await commands.customers.delete(request.params.customerId, context);
        await reader.getAfter(outcome.position, customersCollection, outcome.id, request.auth);
        return { id: outcome.id };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/customers',
      summary: 'List customers, newest first',
      tag,
      query: listCustomersQuery,
      response: listOf(customerSchema),
      handler: (request) => {
        const { email, deleted, ...page } = request.query;
        return reader.list(customersCollection, request.auth, page, { email, _deleted: deleted ?? false });
      },
    }),
  ];
}
