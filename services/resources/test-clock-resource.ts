import { testClockResource, testClockEventTypes } from '../../packages/domain/test-clock/test-clock-events.ts';
import { TestClockCommands } from '../../packages/commands/test-clock-commands.ts';
import { testClockReadSide } from '../../projections/resources/test-clock-read-side.ts';
import { testClockRoutes } from '../api/routes/test-clock-routes.ts';
import { subscriptionsOnClock } from '../worker/test-clock-subscriptions-query.ts';
import { testClocksCollection } from '../../projections/test-clocks-projection.ts';
import { testClockSchema } from '../api/schemas/test-clock-schemas.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly testClocks: TestClockCommands;
  }
}

export const testClockModule = resourceModule({
  identity: testClockResource,
  events: testClockEventTypes,
  readSide: testClockReadSide,
  objects: resourceObjects({ collection: testClocksCollection, schema: testClockSchema, folded: testClockEventTypes }),
  commands: {
    testClocks: (wiring) =>
      new TestClockCommands({
        aggregates: wiring.aggregates,
        subscriptions: wiring.commands.subscriptions,
        background: wiring.background,
        subscriptionsOnClock: (tenant, testClockId) => subscriptionsOnClock(wiring.readModels, tenant, testClockId),
        waitForProjections: async (position) =>
          void (await wiring.readModels.waitFor(position, wiring.config.readYourWritesTimeoutMs)),
      }),
  },
  routes: testClockRoutes,
});
