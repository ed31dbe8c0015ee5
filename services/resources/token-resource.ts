import { tokenResource } from '../../packages/domain/token/token-events.ts';
import { TokenCommands } from '../../packages/commands/token-commands.ts';
import { tokenReadSide } from '../../projections/resources/token-read-side.ts';
import { tokenRoutes } from '../api/routes/token-routes.ts';
import { resourceModule } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly tokens: TokenCommands;
  }
}

export const tokenModule = resourceModule({
  identity: tokenResource,
  readSide: tokenReadSide,
  commands: {
    tokens: (wiring) =>
      new TokenCommands(wiring.aggregates, wiring.intake, wiring.config.tokenTtlSeconds, wiring.network),
  },
  routes: tokenRoutes,
});
