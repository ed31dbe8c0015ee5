import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { commandContext } from '../command-context.ts';
import { refundSchema } from '../schemas/charge-schemas.ts';
import { listOf } from '../schemas/common-schemas.ts';
import { createRefundBody, listRefundsQuery, refundIdParams, updateRefundBody } from '../schemas/refund-schemas.ts';
import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';

const tag = 'Refunds';

export function refundRoutes({ commands, reader }: ApiDependencies): AnyRouteDefinition[] {
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
        await reader.get('charges', 'Charge', chargeId, request.auth).catch((error: unknown) => {
          throw error instanceof NotFoundError ? new InvalidRequestError(`Invalid parameter: chargeId '${chargeId}' does not exist`) : error;
        });
        const outcome = await commands.charges.refund(chargeId, refund, commandContext(request));
        return reader.getAfter(outcome.position, 'refunds', 'Refund', outcome.refundId, request.auth);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/refunds/:refundId',
      summary: 'Retrieve a refund',
      tag,
      params: refundIdParams,
      response: refundSchema,
      handler: (request) => reader.get('refunds', 'Refund', request.params.refundId, request.auth),
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
        const refund = await reader.get('refunds', 'Refund', request.params.refundId, request.auth);
        if (request.body.metadata === undefined) return refund;
        const outcome = await commands.charges.updateRefund(String(refund.charge), request.params.refundId, request.body.metadata, commandContext(request));
        return reader.getAfter(outcome.position, 'refunds', 'Refund', request.params.refundId, request.auth);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/refunds',
      summary: 'List the refunds of a charge, newest first',
      tag,
      query: listRefundsQuery,
      response: listOf(refundSchema),
      handler: (request) => {
        const { chargeId, ...page } = request.query;
        return reader.list('refunds', request.auth, page, { charge: chargeId });
      },
    }),
  ];
}
