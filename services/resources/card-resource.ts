import { cardResource, cardEventTypes } from '../../packages/domain/customer/customer-events.ts';
import { CardSources } from '../../packages/commands/card-sources.ts';
import { cardReadSide } from '../../projections/resources/card-read-side.ts';
import { cardRoutes } from '../api/routes/card-routes.ts';
import { cardSchema } from '../api/schemas/card-schemas.ts';
import { cardsCollection } from '../../projections/cards-projection.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    /** Where a charge, credit or customer gets its card: card details, a token, or a saved card. */
    readonly cardSources: CardSources;
  }
}

export const cardModule = resourceModule({
  identity: cardResource,
  events: cardEventTypes,
  readSide: cardReadSide,
  objects: resourceObjects({ collection: cardsCollection, schema: cardSchema, folded: cardEventTypes }),
  commands: {
    cardSources: (wiring) => new CardSources(wiring.aggregates, wiring.intake, wiring.commands.tokens),
  },
  routes: cardRoutes,
  eventData: cardSchema,
});
