import { blacklistRuleResource, blacklistRuleEventTypes } from '../../packages/domain/blacklist/blacklist-events.ts';
import { BlacklistCommands } from '../../packages/commands/blacklist-commands.ts';
import { blacklistRuleReadSide } from '../../projections/resources/blacklist-rule-read-side.ts';
import { blacklistRoutes } from '../api/routes/blacklist-routes.ts';
import { blacklistRulesCollection } from '../../projections/blacklist-projection.ts';
import { blacklistRuleSchema } from '../api/schemas/blacklist-schemas.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly blacklist: BlacklistCommands;
  }
}

export const blacklistRuleModule = resourceModule({
  identity: blacklistRuleResource,
  events: blacklistRuleEventTypes,
  readSide: blacklistRuleReadSide,
  objects: resourceObjects({
    collection: blacklistRulesCollection,
    schema: blacklistRuleSchema,
    folded: blacklistRuleEventTypes,
  }),
  commands: {
    blacklist: (wiring) => new BlacklistCommands(wiring.aggregates, wiring.fingerprinter),
  },
  routes: blacklistRoutes,
});
