import { blacklistRuleResource } from '../../packages/domain/blacklist/blacklist-events.ts';
import { BlacklistCommands } from '../../packages/commands/blacklist-commands.ts';
import { blacklistRuleReadSide } from '../../projections/resources/blacklist-rule-read-side.ts';
import { blacklistRoutes } from '../api/routes/blacklist-routes.ts';
import { resourceModule } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly blacklist: BlacklistCommands;
  }
}

export const blacklistRuleModule = resourceModule({
  identity: blacklistRuleResource,
  readSide: blacklistRuleReadSide,
  commands: {
    blacklist: (wiring) => new BlacklistCommands(wiring.aggregates, wiring.fingerprinter),
  },
  routes: blacklistRoutes,
});
