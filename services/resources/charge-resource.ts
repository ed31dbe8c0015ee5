import { chargeResource, chargeEventTypes } from '../../packages/domain/charge/charge-events.ts';
import { ChargeCommands } from '../../packages/commands/charge-commands.ts';
import { NetworkOutcomeCommands } from '../../packages/commands/network-outcome-commands.ts';
import { ProcessorEventCommands } from '../../packages/commands/processor-event-commands.ts';
import { chargeReadSide } from '../../projections/resources/charge-read-side.ts';
import { chargeRoutes } from '../api/routes/charge-routes.ts';
import { clientObjectRoutes } from '../api/routes/client-object-routes.ts';
import { accountSettings } from '../../packages/commands/account-settings.ts';
import { liveBlacklistRules } from '../api/blacklist-rules-query.ts';
import { chargeSchema } from '../api/schemas/charge-schemas.ts';
import { chargeAuthorizationEventTypes } from '../../packages/domain/charge/charge-authorization.ts';
import { disputeEventTypes } from '../../packages/domain/charge/dispute-events.ts';
import { fraudWarningEventTypes } from '../../packages/domain/charge/fraud-warning-events.ts';
import { networkOutcomeEventTypes } from '../../packages/domain/charge/network-outcome-events.ts';
import { paymentMethodChargeEventTypes } from '../../packages/domain/charge/payment-method-charge.ts';
import { chargesCollection } from '../../projections/charges-projection.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly charges: ChargeCommands;
    /** Delayed network outcomes (disputes, fraud warnings) delivered to their charges. */
    readonly networkOutcomes: NetworkOutcomeCommands;
    /** Refunds and disputes that live processors report about their charges. */
    readonly processorEvents: ProcessorEventCommands;
  }
}

export const chargeModule = resourceModule({
  identity: chargeResource,
  events: [
    ...chargeEventTypes,
    ...paymentMethodChargeEventTypes,
    // Intents and announcements of the card network's answers, which the charge's view does not fold.
    ...chargeAuthorizationEventTypes,
    ...networkOutcomeEventTypes,
  ],
  readSide: chargeReadSide,
  objects: resourceObjects({
    collection: chargesCollection,
    schema: chargeSchema,
    // A charge shows its refunds, dispute and fraud details.
    folded: [...chargeEventTypes, ...paymentMethodChargeEventTypes, ...disputeEventTypes, ...fraudWarningEventTypes],
  }),
  commands: {
    charges: (wiring) =>
      new ChargeCommands({
        aggregates: wiring.aggregates,
        cardSources: wiring.commands.cardSources,
        intake: wiring.intake,
        tokens: wiring.commands.tokens,
        network: wiring.network,
        blacklistRules: (tenant) => liveBlacklistRules(wiring.readModels, tenant),
        accountSettings: (accountId) => accountSettings(wiring.aggregates, accountId),
      }),
    networkOutcomes: (wiring) => new NetworkOutcomeCommands(wiring.aggregates),
    processorEvents: (wiring) => new ProcessorEventCommands({ aggregates: wiring.aggregates, vault: wiring.vault }),
  },
  // A payer's page follows a payment-method charge by its client object id.
  routes: (deps) => [...chargeRoutes(deps), ...clientObjectRoutes(deps)],
  eventData: chargeSchema,
});
