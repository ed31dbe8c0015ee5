import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { commandContext } from '../request-command-context.ts';
import { refundSchema } from '../schemas/charge-schemas.ts';
import { listOf } from '../schemas/common-schemas.ts';
import { createRefundBody, listRefundsQuery, refundIdParams, updateRefundBody } from '../schemas/refund-schemas.ts';
import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import type { Tenant } from '../../../packages/domain/tenant.ts';
import { chargesCollection } from '../../../projections/charges-projection.ts';
import { refundsCollection } from '../../../projections/refunds-projection.ts';

const tag = 'Refunds';

export function refundRoutes({ commands, reader }: ApiDependencies): AnyRouteDefinition[] {
  /** The charge named by the `chargeId` parameter: an unknown one is a bad parameter (400), not a 404. */
  const chargeParameter = (chargeId: string, auth: Tenant) =>
    reader.get(chargesCollection, chargeId, auth).catch((error: unknown) => {
      throw error instanceof NotFoundError
        ? new InvalidRequestError(`Invalid parameter: chargeId '${chargeId}' does not exist`)
        : error;
    });

  return [
    defineRoute({
      method: 'post',
      path: '/refunds',
      summary: 'Refund part or all of a captured charge',
      tag,
      body: createRefundBody,
      response: refundSchema,
      async handler(request) {
        const { chargeId, ...refund } = request.body;
        await chargeParameter(chargeId, request.auth);
        const outcome = await commands.charges.refund(chargeId, refund, commandContext(request));
        return reader.getAfter(outcome.position, refundsCollection, outcome.refundId, request.auth);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/refunds/:refundId',
      summary: 'Retrieve a refund',
      tag,
      params: refundIdParams,
      response: refundSchema,
      handler: (request) => reader.get(refundsCollection, request.params.refundId, request.auth),
    }),
    defineRoute({
      method: 'post',
      path: '/refunds/:refundId',
      summary: "Update a refund's metadata",
      tag,
      params: refundIdParams,
      body: updateRefundBody,
      response: refundSchema,
      async handler(request) {
        const refund = await reader.get(refundsCollection, request.params.refundId, request.auth);
        if (request.body.metadata === undefined) return refund;
        const outcome = await commands.charges.updateRefund(
          String(refund.charge),
          request.params.refundId,
          request.body.metadata,
          commandContext(request),
        );
        return reader.getAfter(outcome.position, refundsCollection, request.params.refundId, request.auth);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/refunds',
      summary: 'List the refunds of a charge, newest first',
      tag,
      query: listRefundsQuery,
      response: listOf(refundSchema),
      async handler(request) {
        const { chargeId, ...page } = request.query;
        await chargeParameter(chargeId, request.auth);
        return reader.list(refundsCollection, request.auth, page, { charge: chargeId });
      },
    }),
  ];
}
