import { creditResource, creditEventTypes } from '../../packages/domain/credit/credit-events.ts';
import { CreditCommands } from '../../packages/commands/credit-commands.ts';
import { creditReadSide } from '../../projections/resources/credit-read-side.ts';
import { creditRoutes } from '../api/routes/credit-routes.ts';
import { accountSettings } from '../../packages/commands/account-settings.ts';
import { liveBlacklistRules } from '../api/blacklist-rules-query.ts';
import { creditTransferEventTypes } from '../../packages/domain/credit/credit-transfer.ts';
import { creditsCollection } from '../../projections/credits-projection.ts';
import { creditSchema } from '../api/schemas/credit-schemas.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly credits: CreditCommands;
  }
}

export const creditModule = resourceModule({
  identity: creditResource,
  events: [...creditEventTypes, ...creditTransferEventTypes],
  readSide: creditReadSide,
  objects: resourceObjects({ collection: creditsCollection, schema: creditSchema, folded: creditEventTypes }),
  commands: {
    credits: (wiring) =>
      new CreditCommands({
        aggregates: wiring.aggregates,
        cardSources: wiring.commands.cardSources,
        intake: wiring.intake,
        network: wiring.network,
        blacklistRules: (tenant) => liveBlacklistRules(wiring.readModels, tenant),
        accountSettings: (accountId) => accountSettings(wiring.aggregates, accountId),
      }),
  },
  routes: creditRoutes,
});
