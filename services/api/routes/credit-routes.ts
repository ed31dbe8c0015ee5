import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { commandContext } from '../request-command-context.ts';
import { listFilteredByCustomer } from '../customer-list.ts';
import { listOf } from '../schemas/common-schemas.ts';
import {
  createCreditBody,
  creditIdParams,
  creditSchema,
  listCreditsQuery,
  updateCreditBody,
} from '../schemas/credit-schemas.ts';
import type { Tenant } from '../../../packages/domain/tenant.ts';
import { creditsCollection } from '../../../projections/credits-projection.ts';

const tag = 'Credits';

export function creditRoutes({ commands, reader }: ApiDependencies): AnyRouteDefinition[] {
  type Authorized = { auth: Tenant };
  const creditOf = (request: { params: { creditId: string } } & Authorized) =>
    reader.get(creditsCollection, request.params.creditId, request.auth);
  const readCredit = (position: number | null, creditId: string, request: Authorized) =>
    reader.getAfter(position, creditsCollection, creditId, request.auth);

  return [
    defineRoute({
      method: 'post',
      path: '/credits',
      summary: 'Send funds to a card; a declined credit is recorded and answered with 402 card_error and creditId',
      tag,
      body: createCreditBody,
      response: creditSchema,
      handler: (request) =>
        reader.paymentAfter(
          () => commands.credits.create(request.body, commandContext(request)),
          creditsCollection,
          request.auth,
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/credits/:creditId',
      summary: 'Retrieve a credit',
      tag,
      params: creditIdParams,
      response: creditSchema,
      handler: (request) => creditOf(request),
    }),
    defineRoute({
      method: 'post',
      path: '/credits/:creditId',
      summary: "Update a credit's description and metadata",
      tag,
      params: creditIdParams,
      body: updateCreditBody,
      response: creditSchema,
      async handler(request) {
        await creditOf(request);
        const outcome = await commands.credits.update(request.params.creditId, request.body, commandContext(request));
        return readCredit(outcome.position, request.params.creditId, request);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/credits',
      summary: 'List credits, newest first',
      tag,
      query: listCreditsQuery,
      response: listOf(creditSchema),
      handler: (request) => listFilteredByCustomer(reader, creditsCollection, request.auth, request.query),
    }),
  ];
}
