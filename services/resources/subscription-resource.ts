import {
  subscriptionResource,
  subscriptionEventTypes,
} from '../../packages/domain/subscription/subscription-events.ts';
import { SubscriptionCommands } from '../../packages/commands/subscription-commands.ts';
import { subscriptionReadSide } from '../../projections/resources/subscription-read-side.ts';
import { subscriptionRoutes } from '../api/routes/subscription-routes.ts';
import { subscriptionSchema } from '../api/schemas/subscription-schemas.ts';
import { subscriptionsCollection } from '../../projections/subscriptions-projection.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly subscriptions: SubscriptionCommands;
  }
}

export const subscriptionModule = resourceModule({
  identity: subscriptionResource,
  events: subscriptionEventTypes,
  readSide: subscriptionReadSide,
  objects: resourceObjects({
    collection: subscriptionsCollection,
    schema: subscriptionSchema,
    folded: subscriptionEventTypes,
  }),
  commands: {
    subscriptions: (wiring) =>
      new SubscriptionCommands({
        aggregates: wiring.aggregates,
        customers: wiring.commands.customers,
        intake: wiring.intake,
        charges: wiring.commands.charges,
        plans: wiring.commands.plans,
        clock: wiring.commands.customerClock,
        background: wiring.background,
      }),
  },
  routes: subscriptionRoutes,
  eventData: subscriptionSchema,
});
