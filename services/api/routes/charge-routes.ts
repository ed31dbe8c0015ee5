import { InvalidRequestError, missingParameter } from '../../../packages/domain/errors.ts';
import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { commandContext } from '../request-command-context.ts';
import { listFilteredByCustomer } from '../customer-list.ts';
import {
  chargeIdParams,
  chargeSchema,
  createChargeBody,
  listChargesQuery,
  refundChargeBody,
  updateChargeBody,
} from '../schemas/charge-schemas.ts';
import { listOf } from '../schemas/common-schemas.ts';
import { paymentRedirectPath } from '../payment-redirect-page.ts';
import { publicBaseUrl } from '../public-base-url.ts';
import type { Tenant } from '../../../packages/domain/tenant.ts';
import { chargesCollection } from '../../../projections/charges-projection.ts';

const tag = 'Charges';

export function chargeRoutes({ commands, reader }: ApiDependencies): AnyRouteDefinition[] {
  const chargeOf = (request: { params: { chargeId: string }; auth: Tenant }) =>
    reader.get(chargesCollection, request.params.chargeId, request.auth);
  const readCharge = (position: number | null, chargeId: string, request: { auth: Tenant }) =>
    reader.getAfter(position, chargesCollection, chargeId, request.auth);

  return [
    defineRoute({
      method: 'post',
      path: '/charges',
      summary: 'Create a charge; a declined charge is recorded and answered with 402 card_error',
      tag,
      body: createChargeBody,
      response: chargeSchema,
      async handler(request) {
        const { paymentMethod, flow, ...cardCharge } = request.body;
        if (paymentMethod !== undefined) {
          const { card, billing, threeDSecure, ...fields } = cardCharge;
          if (billing !== undefined)
            throw new InvalidRequestError('Invalid parameter: billing cannot be combined with paymentMethod');
          if (card !== undefined)
            throw new InvalidRequestError('Invalid parameter: card cannot be combined with paymentMethod');
          if (threeDSecure !== undefined)
            throw new InvalidRequestError('Invalid parameter: threeDSecure applies to card charges only');
          if (flow === undefined) throw missingParameter('flow[returnUrl]');
          const baseUrl = publicBaseUrl(request);
          const outcome = await commands.paymentMethodCharges.create(
            { ...fields, paymentMethod, returnUrl: flow.returnUrl },
            (clientObjectId) => `${baseUrl}${paymentRedirectPath(clientObjectId)}`,
            commandContext(request),
          );
          return readCharge(outcome.position, outcome.id, request);
        }
        if (flow !== undefined)
          throw new InvalidRequestError('Invalid parameter: flow applies to payment-method charges only');
        // A charge of a customer on a test clock is made at the clock's time.
        const { customerId } = request.body;
        const context =
          customerId === undefined
            ? commandContext(request)
            : await commands.customerClock.forCustomer(customerId, commandContext(request));
        return reader.paymentAfter(() => commands.charges.create(cardCharge, context), chargesCollection, request.auth);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/charges/:chargeId',
      summary: 'Retrieve a charge',
      tag,
      params: chargeIdParams,
      response: chargeSchema,
      handler: (request) => chargeOf(request),
    }),
    defineRoute({
      method: 'post',
      path: '/charges/:chargeId',
      summary: 'Update a charge; customerId only for a charge not assigned to any customer',
      tag,
      params: chargeIdParams,
      body: updateChargeBody,
      response: chargeSchema,
      async handler(request) {
        await chargeOf(request);
        const outcome = await commands.charges.update(request.params.chargeId, request.body, commandContext(request));
        return readCharge(outcome.position, request.params.chargeId, request);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/charges/:chargeId/capture',
      summary: 'Capture a charge created with captured=false',
      tag,
      params: chargeIdParams,
      response: chargeSchema,
      async handler(request) {
        await chargeOf(request);
        const outcome = await commands.charges.capture(request.params.chargeId, commandContext(request));
        return readCharge(outcome.position, request.params.chargeId, request);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/charges/:chargeId/refund',
      summary: 'Refund part or all of a captured charge',
      tag,
      params: chargeIdParams,
      body: refundChargeBody,
      response: chargeSchema,
      async handler(request) {
        await chargeOf(request);
        const outcome = await commands.charges.refund(request.params.chargeId, request.body, commandContext(request));
        return readCharge(outcome.position, request.params.chargeId, request);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/charges',
      summary: 'List charges, newest first',
      tag,
      query: listChargesQuery,
      response: listOf(chargeSchema),
      handler: (request) => listFilteredByCustomer(reader, chargesCollection, request.auth, request.query),
    }),
  ];
}
