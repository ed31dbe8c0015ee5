import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { commandContext } from '../request-command-context.ts';
import {
  createCardBody,
  customerCardParams,
  cardSchema,
  listCardsQuery,
  updateCardBody,
} from '../schemas/card-schemas.ts';
import { deletedSchema, listOf } from '../schemas/common-schemas.ts';
import { customerIdParams } from '../schemas/customer-schemas.ts';
import type { Tenant } from '../../../packages/domain/tenant.ts';
import { cardsCollection } from '../../../projections/cards-projection.ts';
import { customersCollection } from '../../../projections/customers-projection.ts';

const tag = 'Cards';

export function cardRoutes({ commands, reader }: ApiDependencies): AnyRouteDefinition[] {
  const customerOf = (request: { params: { customerId: string }; auth: Tenant }) =>
    reader.get(customersCollection, request.params.customerId, request.auth);

  return [
    defineRoute({
      method: 'post',
      path: '/customers/:customerId/cards',
      summary: 'Save a card for a customer (token or charge id as `id`, or card details); it becomes the default',
      tag,
      params: customerIdParams,
      body: createCardBody,
      response: cardSchema,
      async handler(request) {
        await customerOf(request);
        const reference = 'id' in request.body ? request.body.id : request.body;
        const context = await commands.customerClock.forCustomer(request.params.customerId, commandContext(request));
        const outcome = await commands.customers.addCard(request.params.customerId, reference, context);
        return reader.getAfter(outcome.position, cardsCollection, outcome.id, request.auth, {
          customerId: request.params.customerId,
        });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/customers/:customerId/cards/:cardId',
      summary: 'Retrieve a saved card',
      tag,
      params: customerCardParams,
      response: cardSchema,
      handler: (request) =>
        reader.get(cardsCollection, request.params.cardId, request.auth, { customerId: request.params.customerId }),
    }),
    defineRoute({
      method: 'post',
      path: '/customers/:customerId/cards/:cardId',
      summary: 'Update a saved card; checkFastCredit=true checks fast-credit support',
      tag,
      params: customerCardParams,
      body: updateCardBody,
      response: cardSchema,
      async handler(request) {
        const { customerId, cardId } = request.params;
        await reader.get(cardsCollection, cardId, request.auth, { customerId });
        const context = await commands.customerClock.forCustomer(customerId, commandContext(request));
        const outcome = await commands.customers.updateCard(customerId, cardId, request.body, context);
        return reader.getAfter(outcome.position, cardsCollection, cardId, request.auth, { customerId });
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/customers/:customerId/cards/:cardId',
      summary: 'Delete a saved card; the most recently added remaining card becomes the default',
      tag,
      params: customerCardParams,
      response: deletedSchema,
      async handler(request) {
        const { customerId, cardId } = request.params;
        await reader.get(cardsCollection, cardId, request.auth, { customerId });
        const context = await commands.customerClock.forCustomer(customerId, commandContext(request));
        const outcome = await commands.customers.deleteCard(customerId, cardId, context);
        await reader.caughtUp(outcome.position);
        return { id: cardId };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/customers/:customerId/cards',
      summary: "List a customer's cards, newest first",
      tag,
      params: customerIdParams,
      query: listCardsQuery,
      response: listOf(cardSchema),
      async handler(request) {
        await customerOf(request);
        const { deleted, ...page } = request.query;
        return reader.list(cardsCollection, request.auth, page, {
          customerId: request.params.customerId,
          _deleted: deleted ?? false,
        });
      },
    }),
  ];
}
