import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { commandContext } from '../request-command-context.ts';
import { deletedSchema, listOf } from '../schemas/common-schemas.ts';
import {
  createCrossSaleOfferBody,
  crossSaleOfferIdParams,
  crossSaleOfferSchema,
  listCrossSaleOffersQuery,
  updateCrossSaleOfferBody,
} from '../schemas/cross-sale-offer-schemas.ts';
import { crossSaleOffersCollection } from '../../../projections/cross-sale-offers-projection.ts';
import { publicObject } from '../../../projections/views/object-view.ts';
import { NotFoundError } from '../../../packages/domain/errors.ts';
import { withImageAddress } from '../offer-image-address.ts';

const tag = 'Cross-sale offers';
const collection = crossSaleOffersCollection;

export function crossSaleOfferRoutes({ commands, reader }: ApiDependencies): AnyRouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/cross-sale-offers',
      summary: 'Create a cross-sale offer',
      tag,
      body: createCrossSaleOfferBody,
      response: crossSaleOfferSchema,
      async handler(request) {
        const outcome = await commands.crossSaleOffers.create(withPartnerIds(request.body), commandContext(request));
        return withImageAddress(await reader.getAfter(outcome.position, collection, outcome.id, request.auth), request);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/cross-sale-offers/:crossSaleOfferId',
      summary:
        'Retrieve a cross-sale offer: the caller’s own, or a partner’s visible to the caller (deleted offers are returned with deleted: true)',
      tag,
      params: crossSaleOfferIdParams,
      response: crossSaleOfferSchema,
      async handler(request) {
        const id = request.params.crossSaleOfferId;
        // Own offers as every object (also as of a time); a partner's visible offer, read-only.
        const own = await reader.get(collection, id, request.auth).catch((error: unknown) => {
          if (error instanceof NotFoundError) return null;
          throw error;
        });
        if (own) return withImageAddress(own, request);
        const partners = await commands.crossSaleOfferVisibility.get(id, request.auth);
        if (!partners) throw new NotFoundError(collection.objectName, id);
        return withImageAddress(publicObject(partners), request);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/cross-sale-offers/:crossSaleOfferId',
      summary: 'Update a cross-sale offer (any create parameter; charge parts not given stay)',
      tag,
      params: crossSaleOfferIdParams,
      body: updateCrossSaleOfferBody,
      response: crossSaleOfferSchema,
      async handler(request) {
        // Another tenant's offer must be a 404 before anything else is looked at (or stored).
        await reader.get(collection, request.params.crossSaleOfferId, request.auth);
        const outcome = await commands.crossSaleOffers.update(
          request.params.crossSaleOfferId,
          withPartnerIds(request.body),
          commandContext(request),
        );
        return withImageAddress(await reader.getAfter(outcome.position, collection, outcome.id, request.auth), request);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/cross-sale-offers/:crossSaleOfferId',
      summary: 'Delete a cross-sale offer (soft delete)',
      tag,
      params: crossSaleOfferIdParams,
      response: deletedSchema,
      async handler(request) {
        await reader.get(collection, request.params.crossSaleOfferId, request.auth);
        const outcome = await commands.crossSaleOffers.delete(request.params.crossSaleOfferId, commandContext(request));
        await reader.getAfter(outcome.position, collection, outcome.id, request.auth);
        return { id: outcome.id };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/cross-sale-offers',
      summary:
        'List the caller’s own cross-sale offers and the visible offers of the accounts on its partner list (owner=self: own only), newest first',
      tag,
      query: listCrossSaleOffersQuery,
      response: listOf(crossSaleOfferSchema),
      async handler(request) {
        const { deleted, owner, ...page } = request.query;
        const visibility = commands.crossSaleOfferVisibility;
        // Own offers only: one indexed list of the caller's read model, as every list.
        const { list, hasMore } =
          owner === 'self' || (await visibility.partnersOf(request.auth.accountId)).length === 0
            ? await reader.list(collection, request.auth, page, { _deleted: deleted ?? false })
            : await visibility.list(request.auth, page, deleted ?? false);
        return { list: list.map((offer) => withImageAddress(offer, request)), hasMore };
      },
    }),
  ];
}

/** The partner setting under its one name, whichever name the request gave it (the schema checked both agree). */
function withPartnerIds<T extends { partnerIds?: string[]; visibleForPartnerIds?: string[] }>(
  body: T,
): Omit<T, 'visibleForPartnerIds'> {
  const { visibleForPartnerIds, ...rest } = body;
  return visibleForPartnerIds === undefined || rest.partnerIds !== undefined
    ? rest
    : { ...rest, partnerIds: visibleForPartnerIds };
}
