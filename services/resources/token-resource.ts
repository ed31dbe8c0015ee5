import { tokenResource, tokenEventTypes } from '../../packages/domain/token/token-events.ts';
import { TokenCommands } from '../../packages/commands/token-commands.ts';
import { tokenReadSide } from '../../projections/resources/token-read-side.ts';
import { tokenRoutes } from '../api/routes/token-routes.ts';
import { tokensCollection } from '../../projections/tokens-projection.ts';
import { tokenSchema } from '../api/schemas/token-schemas.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly tokens: TokenCommands;
  }
}

export const tokenModule = resourceModule({
  identity: tokenResource,
  events: tokenEventTypes,
  readSide: tokenReadSide,
  objects: resourceObjects({ collection: tokensCollection, schema: tokenSchema, folded: tokenEventTypes }),
  commands: {
    tokens: (wiring) =>
      new TokenCommands(wiring.aggregates, wiring.intake, wiring.config.tokenTtlSeconds, wiring.network),
  },
  routes: tokenRoutes,
});
