import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { commandContext } from '../command-context.ts';
import { createTokenBody, tokenIdParams, tokenSchema } from '../schemas/token-schemas.ts';
import { tokensCollection } from '../../../projections/tokens-projection.ts';

const tag = 'Tokens';

export function tokenRoutes({ commands, reader }: ApiDependencies): AnyRouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/tokens',
      summary: 'Create a token: card data for one use (public or secret key)',
      tag,
      auth: 'publicOrSecret',
      body: createTokenBody,
      response: tokenSchema,
      async handler(request) {
        const outcome = await commands.tokens.create(request.body, commandContext(request));
        return reader.getAfter(outcome.position, tokensCollection, outcome.id, request.auth);
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
