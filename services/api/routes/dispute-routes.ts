import { InvalidRequestError } from '../../../packages/domain/errors.ts';
import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { commandContext } from '../request-command-context.ts';
import type { Tenant } from '../../../packages/domain/tenant.ts';
import { listOf } from '../schemas/common-schemas.ts';
import { disputeIdParams, disputeSchema, listDisputesQuery, updateDisputeBody } from '../schemas/dispute-schemas.ts';
import { chargesCollection } from '../../../projections/charges-projection.ts';
import { disputesCollection } from '../../../projections/disputes-projection.ts';
import { fileResource } from '../../../packages/domain/file/file-events.ts';
import { isIdOf } from '../../../packages/ids/object-id.ts';

const tag = 'Disputes';

/**
 * Disputes open by themselves (the card network reports them, see docs/disputes.md); the merchant
 * reads them, contests them with evidence or accepts them as lost. A dispute renders its charge
 * object in `charge` (the Shift4 client libraries read `dispute.charge.id`).
 */
export function disputeRoutes({ commands, reader }: ApiDependencies): AnyRouteDefinition[] {
  const withCharge = async (dispute: Record<string, unknown>, tenant: Tenant) => ({
    ...dispute,
    charge: await reader.get(chargesCollection, String(dispute.charge), tenant),
  });
  const disputeOf = (disputeId: string, tenant: Tenant) => reader.get(disputesCollection, disputeId, tenant);
  const readAfter = async (position: number | null, disputeId: string, tenant: Tenant) =>
    withCharge(await reader.getAfter(position, disputesCollection, disputeId, tenant), tenant);

  return [
    defineRoute({
      method: 'get',
      path: '/disputes/:disputeId',
      summary: 'Retrieve a dispute, with its charge',
      tag,
      params: disputeIdParams,
      response: disputeSchema,
      handler: async (request) => withCharge(await disputeOf(request.params.disputeId, request.auth), request.auth),
    }),
    defineRoute({
      method: 'post',
      path: '/disputes/:disputeId',
      summary: 'Contest a dispute with evidence (once); the network decides later',
      tag,
      params: disputeIdParams,
      body: updateDisputeBody,
      response: disputeSchema,
      async handler(request) {
        const dispute = await disputeOf(request.params.disputeId, request.auth);
        if (request.body.evidence === undefined) return withCharge(dispute, request.auth);
        // Evidence may name uploaded files (`evidence[receipt]=file_…`): only files of this account and mode.
        for (const [field, value] of Object.entries(request.body.evidence)) {
          if (
            typeof value === 'string' &&
            isIdOf(fileResource, value) &&
            !(await commands.files.exists(value, request.auth))
          )
            throw new InvalidRequestError(`Invalid parameter: evidence[${field}] '${value}' is not an uploaded file`);
        }
        const outcome = await commands.disputes.submitEvidence(
          String(dispute.charge),
          request.params.disputeId,
          request.body.evidence,
          commandContext(request),
        );
        return readAfter(outcome.position, request.params.disputeId, request.auth);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/disputes/:disputeId/close',
      summary: 'Accept a dispute as lost',
      tag,
      params: disputeIdParams,
      response: disputeSchema,
      async handler(request) {
        const dispute = await disputeOf(request.params.disputeId, request.auth);
        const outcome = await commands.disputes.close(
          String(dispute.charge),
          request.params.disputeId,
          commandContext(request),
        );
        return readAfter(outcome.position, request.params.disputeId, request.auth);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/disputes',
      summary: 'List disputes, newest first',
      tag,
      query: listDisputesQuery,
      response: listOf(disputeSchema),
      async handler(request) {
        const page = await reader.list(disputesCollection, request.auth, request.query);
        return {
          list: await Promise.all(page.list.map((dispute) => withCharge(dispute, request.auth))),
          hasMore: page.hasMore,
        };
      },
    }),
  ];
}
