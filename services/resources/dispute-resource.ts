import { disputeResource } from '../../packages/domain/charge/charge-events.ts';
import { DisputeCommands } from '../../packages/commands/dispute-commands.ts';
import { disputeReadSide } from '../../projections/resources/dispute-read-side.ts';
import { disputeRoutes } from '../api/routes/dispute-routes.ts';
import { disputeEventTypes } from '../../packages/domain/charge/dispute-events.ts';
import { disputesCollection } from '../../projections/disputes-projection.ts';
import { disputeSchema } from '../api/schemas/dispute-schemas.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly disputes: DisputeCommands;
  }
}

export const disputeModule = resourceModule({
  identity: disputeResource,
  events: disputeEventTypes,
  readSide: disputeReadSide,
  objects: resourceObjects({ collection: disputesCollection, schema: disputeSchema, folded: disputeEventTypes }),
  commands: {
    disputes: (wiring) => new DisputeCommands(wiring.aggregates, wiring.network),
  },
  routes: disputeRoutes,
});
