import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { listOf } from '../schemas/common-schemas.ts';
import { fraudWarningIdParams, fraudWarningSchema, listFraudWarningsQuery } from '../schemas/fraud-warning-schemas.ts';
import { chargesCollection } from '../../../projections/charges-projection.ts';
import { fraudWarningsCollection } from '../../../projections/fraud-warnings-projection.ts';

const tag = 'Fraud warnings';

/** Fraud warnings arrive from the card network by themselves (docs/disputes.md); read-only. */
export function fraudWarningRoutes({ reader }: ApiDependencies): AnyRouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/fraud-warnings/:fraudWarningId',
      summary: 'Retrieve a fraud warning',
      tag,
      params: fraudWarningIdParams,
      response: fraudWarningSchema,
      handler: (request) => reader.get(fraudWarningsCollection, request.params.fraudWarningId, request.auth),
    }),
    defineRoute({
      method: 'get',
      path: '/fraud-warnings',
      summary: 'List fraud warnings, newest first',
      tag,
      query: listFraudWarningsQuery,
      response: listOf(fraudWarningSchema),
      async handler(request) {
        const { chargeId, actionable, ...page } = request.query;
        // An unknown charge in a parameter is a bad parameter (400), not an empty list.
        if (chargeId !== undefined) {
          await reader.get(chargesCollection, chargeId, request.auth).catch((error: unknown) => {
            throw error instanceof NotFoundError
              ? new InvalidRequestError(`Invalid parameter: chargeId '${chargeId}' does not exist`)
              : error;
          });
        }
        return reader.list(fraudWarningsCollection, request.auth, page, { charge: chargeId, actionable });
      },
    }),
  ];
}
