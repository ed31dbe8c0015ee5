import { payerFraudCheckData } from '../../../packages/fraud-check/payer-data.ts';
import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { commandContext } from '../request-command-context.ts';
import { verifyThreeDSecureBody } from '../schemas/three-d-secure-schemas.ts';
import { createTokenBody, tokenIdParams, tokenSchema } from '../schemas/token-schemas.ts';
import { tokensCollection } from '../../../projections/tokens-projection.ts';

const tag = 'Tokens';

export function tokenRoutes({ commands, reader }: ApiDependencies): AnyRouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/tokens',
      summary:
        "Create a token: card data for one use (public or secret key); with the public key the payer's IP, User-Agent and Accept-Language become the card's fraudCheckData",
      tag,
      auth: 'publicOrSecret',
      body: createTokenBody,
      response: tokenSchema,
      async handler(request) {
        // The public key is used from the payer's browser: the request itself tells who pays.
        const body =
          request.auth.keyKind === 'public'
            ? {
                ...request.body,
                fraudCheckData: payerFraudCheckData(
                  {
                    ipAddress: request.ip || null,
                    userAgent: request.headers['user-agent'] ?? null,
                    acceptLanguage: request.headers['accept-language'] ?? null,
                  },
                  request.body.fraudCheckData,
                ),
              }
            : request.body;
        const outcome = await commands.tokens.create(body, commandContext(request));
        return reader.getAfter(outcome.position, tokensCollection, outcome.id, request.auth);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/tokens/:tokenId/three-d-secure',
      summary:
        "Verify the token's card with 3-D Secure for an amount (public or secret key); a challenge card answers liabilityShift pending until the challenge is completed",
      tag,
      auth: 'publicOrSecret',
      params: tokenIdParams,
      body: verifyThreeDSecureBody,
      response: tokenSchema,
      async handler(request) {
        const { tokenId } = request.params;
        const outcome = await commands.tokens.verifyThreeDSecure(tokenId, request.body, commandContext(request));
        return reader.getAfter(outcome.position, tokensCollection, tokenId, request.auth);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/tokens/:tokenId',
      summary: 'Retrieve a token',
      tag,
      params: tokenIdParams,
      response: tokenSchema,
      handler: (request) => reader.get(tokensCollection, request.params.tokenId, request.auth),
    }),
  ];
}
