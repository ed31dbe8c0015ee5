import { customerResource, customerEventTypes } from '../../packages/domain/customer/customer-events.ts';
import { CustomerCommands } from '../../packages/commands/customer-commands.ts';
import { CustomerClock } from '../../packages/commands/customer-clock.ts';
import { customerReadSide } from '../../projections/resources/customer-read-side.ts';
import { customerRoutes } from '../api/routes/customer-routes.ts';
import { customerSchema } from '../api/schemas/customer-schemas.ts';
import { customersCollection } from '../../projections/customers-projection.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly customers: CustomerCommands;
    /** The business clock of a customer: real time, or its test clock's. */
    readonly customerClock: CustomerClock;
  }
}

export const customerModule = resourceModule({
  identity: customerResource,
  events: customerEventTypes,
  readSide: customerReadSide,
  objects: resourceObjects({ collection: customersCollection, schema: customerSchema, folded: customerEventTypes }),
  commands: {
    customers: (wiring) =>
      new CustomerCommands({
        aggregates: wiring.aggregates,
        cardSources: wiring.commands.cardSources,
        tokens: wiring.commands.tokens,
        intake: wiring.intake,
        network: wiring.network,
        vault: wiring.vault,
      }),
    customerClock: (wiring) => new CustomerClock(wiring.aggregates),
  },
  routes: customerRoutes,
  eventData: customerSchema,
});
