import {
  crossSaleOfferResource,
  crossSaleOfferEventTypes,
} from '../../packages/domain/cross-sale-offer/cross-sale-offer-events.ts';
import { CrossSaleOfferCommands } from '../../packages/commands/cross-sale-offer-commands.ts';
import { OfferImages } from '../../packages/commands/offer-image.ts';
import { crossSaleOfferReadSide } from '../../projections/resources/cross-sale-offer-read-side.ts';
import { crossSaleOfferRoutes } from '../api/routes/cross-sale-offer-routes.ts';
import { crossSaleOfferSchema } from '../api/schemas/cross-sale-offer-schemas.ts';
import { accountExists } from '../../packages/commands/account-partners.ts';
import { CrossSaleOfferVisibility } from '../api/cross-sale-offer-visibility.ts';
import { crossSaleOffersCollection } from '../../projections/cross-sale-offers-projection.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly crossSaleOffers: CrossSaleOfferCommands;
    /** Cross-sale offer images (operational state, not events). */
    readonly offerImages: OfferImages;
    /** Which offers an account sees: its own and its partners' visible ones (read side). */
    readonly crossSaleOfferVisibility: CrossSaleOfferVisibility;
  }
}

export const crossSaleOfferModule = resourceModule({
  identity: crossSaleOfferResource,
  events: crossSaleOfferEventTypes,
  readSide: crossSaleOfferReadSide,
  objects: resourceObjects({
    collection: crossSaleOffersCollection,
    schema: crossSaleOfferSchema,
    folded: crossSaleOfferEventTypes,
  }),
  commands: {
    crossSaleOffers: (wiring) =>
      new CrossSaleOfferCommands({
        aggregates: wiring.aggregates,
        images: wiring.commands.offerImages,
        usableOffers: wiring.commands.crossSaleOfferVisibility,
        accountExists: (accountId) => accountExists(wiring.aggregates, accountId),
        charges: wiring.commands.charges,
        cardSources: wiring.commands.cardSources,
        intake: wiring.intake,
        plans: wiring.commands.plans,
        customers: wiring.commands.customers,
        subscriptions: wiring.commands.subscriptions,
        network: wiring.network,
      }),
    crossSaleOfferVisibility: (wiring) => new CrossSaleOfferVisibility(wiring.readModels),
    offerImages: (wiring) => new OfferImages(wiring.stateStore.collection('images')),
  },
  routes: crossSaleOfferRoutes,
  eventData: crossSaleOfferSchema,
});
