import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { commandContext } from '../request-command-context.ts';
import { listFilteredByCustomer } from '../customer-list.ts';
import { listOf } from '../schemas/common-schemas.ts';
import { customerIdParams } from '../schemas/customer-schemas.ts';
import {
  cancelCustomerSubscriptionParameters,
  cancelSubscriptionParameters,
  createCustomerSubscriptionBody,
  createSubscriptionBody,
  customerSubscriptionParams,
  getSubscriptionQuery,
  listCustomerSubscriptionsQuery,
  listSubscriptionsQuery,
  subscriptionIdParams,
  subscriptionSchema,
  updateCustomerSubscriptionBody,
  updateSubscriptionBody,
} from '../schemas/subscription-schemas.ts';
import type { Tenant } from '../../../packages/domain/tenant.ts';
import { customersCollection } from '../../../projections/customers-projection.ts';
import { subscriptionsCollection } from '../../../projections/subscriptions-projection.ts';

const tag = 'Subscriptions';
const collection = subscriptionsCollection;

/**
 * Subscriptions at both places real clients use: under `/customers/{id}` and at the top level with
 * `customerId` as a parameter (optional, but when given it must name the owner).
 */
export function subscriptionRoutes({ commands, reader }: ApiDependencies): AnyRouteDefinition[] {
  const ownedBy = (customerId: string | undefined): { customerId?: string } =>
    customerId === undefined ? {} : { customerId };
  const readSubscription = (position: number | null, id: string, auth: Tenant, customerId?: string) =>
    reader.getAfter(position, collection, id, auth, ownedBy(customerId));
  const customerOf = (customerId: string, auth: Tenant) => reader.get(customersCollection, customerId, auth);

  return [
    defineRoute({
      method: 'post',
      path: '/customers/:customerId/subscriptions',
      summary: 'Create a subscription; without a trial its first charge is made now (status incomplete when it fails)',
      tag,
      params: customerIdParams,
      body: createCustomerSubscriptionBody,
      response: subscriptionSchema,
      async handler(request) {
        await customerOf(request.params.customerId, request.auth);
        const outcome = await commands.subscriptions.create(
          { ...request.body, customerId: request.params.customerId },
          commandContext(request),
        );
        return readSubscription(outcome.position, outcome.id, request.auth);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/customers/:customerId/subscriptions/:subscriptionId',
      summary: 'Retrieve a subscription of a customer',
      tag,
      params: customerSubscriptionParams,
      response: subscriptionSchema,
      handler: (request) =>
        reader.get(collection, request.params.subscriptionId, request.auth, ownedBy(request.params.customerId)),
    }),
    defineRoute({
      method: 'post',
      path: '/customers/:customerId/subscriptions/:subscriptionId',
      summary: 'Update a subscription; only the given parameters change',
      tag,
      params: customerSubscriptionParams,
      body: updateCustomerSubscriptionBody,
      response: subscriptionSchema,
      async handler(request) {
        const { customerId, subscriptionId } = request.params;
        await reader.get(collection, subscriptionId, request.auth, { customerId });
        const outcome = await commands.subscriptions.update(subscriptionId, request.body, commandContext(request));
        return readSubscription(outcome.position, subscriptionId, request.auth);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/customers/:customerId/subscriptions/:subscriptionId',
      summary:
        'Cancel a subscription: at once, or with atPeriodEnd=true at the end of the current period; answers the subscription',
      tag,
      params: customerSubscriptionParams,
      query: cancelCustomerSubscriptionParameters,
      body: cancelCustomerSubscriptionParameters,
      response: subscriptionSchema,
      async handler(request) {
        const { customerId, subscriptionId } = request.params;
        await reader.get(collection, subscriptionId, request.auth, { customerId });
        const atPeriodEnd = request.query.atPeriodEnd ?? request.body.atPeriodEnd ?? false;
        const outcome = await commands.subscriptions.cancel(subscriptionId, atPeriodEnd, commandContext(request));
        return readSubscription(outcome.position, subscriptionId, request.auth);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/customers/:customerId/subscriptions',
      summary: "List a customer's subscriptions, newest first (deleted=true: the canceled ones)",
      tag,
      params: customerIdParams,
      query: listCustomerSubscriptionsQuery,
      response: listOf(subscriptionSchema),
      async handler(request) {
        await customerOf(request.params.customerId, request.auth);
        const { deleted, ...page } = request.query;
        return reader.list(collection, request.auth, page, {
          customerId: request.params.customerId,
          _deleted: deleted ?? false,
        });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/subscriptions',
      summary: 'Create a subscription for the customer in customerId',
      tag,
      body: createSubscriptionBody,
      response: subscriptionSchema,
      async handler(request) {
        const outcome = await commands.subscriptions.create(request.body, commandContext(request));
        return readSubscription(outcome.position, outcome.id, request.auth);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/subscriptions/:subscriptionId',
      summary: 'Retrieve a subscription',
      tag,
      params: subscriptionIdParams,
      query: getSubscriptionQuery,
      response: subscriptionSchema,
      handler: (request) =>
        reader.get(collection, request.params.subscriptionId, request.auth, ownedBy(request.query.customerId)),
    }),
    defineRoute({
      method: 'post',
      path: '/subscriptions/:subscriptionId',
      summary: 'Update a subscription; only the given parameters change',
      tag,
      params: subscriptionIdParams,
      body: updateSubscriptionBody,
      response: subscriptionSchema,
      async handler(request) {
        const { customerId, ...changes } = request.body;
        const { subscriptionId } = request.params;
        await reader.get(collection, subscriptionId, request.auth, ownedBy(customerId));
        const outcome = await commands.subscriptions.update(subscriptionId, changes, commandContext(request));
        return readSubscription(outcome.position, subscriptionId, request.auth);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/subscriptions/:subscriptionId',
      summary:
        'Cancel a subscription: at once, or with atPeriodEnd=true at the end of the current period; answers the subscription',
      tag,
      params: subscriptionIdParams,
      query: cancelSubscriptionParameters,
      body: cancelSubscriptionParameters,
      response: subscriptionSchema,
      async handler(request) {
        const { subscriptionId } = request.params;
        const customerId = request.query.customerId ?? request.body.customerId;
        await reader.get(collection, subscriptionId, request.auth, ownedBy(customerId));
        const atPeriodEnd = request.query.atPeriodEnd ?? request.body.atPeriodEnd ?? false;
        const outcome = await commands.subscriptions.cancel(subscriptionId, atPeriodEnd, commandContext(request));
        return readSubscription(outcome.position, subscriptionId, request.auth);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/subscriptions',
      summary: 'List subscriptions, newest first (customerId: of one customer; deleted=true: the canceled ones)',
      tag,
      query: listSubscriptionsQuery,
      response: listOf(subscriptionSchema),
      handler: (request) => {
        const { deleted, ...query } = request.query;
        return listFilteredByCustomer(reader, collection, request.auth, query, { _deleted: deleted ?? false });
      },
    }),
  ];
}
