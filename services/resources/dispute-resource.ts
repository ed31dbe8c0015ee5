import { disputeResource } from '../../packages/domain/charge/charge-events.ts';
import { DisputeCommands } from '../../packages/commands/dispute-commands.ts';
import { disputeReadSide } from '../../projections/resources/dispute-read-side.ts';
import { disputeRoutes } from '../api/routes/dispute-routes.ts';
import { resourceModule } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly disputes: DisputeCommands;
  }
}

export const disputeModule = resourceModule({
  identity: disputeResource,
  readSide: disputeReadSide,
  commands: {
    disputes: (wiring) => new DisputeCommands(wiring.aggregates, wiring.network),
  },
  routes: disputeRoutes,
});
