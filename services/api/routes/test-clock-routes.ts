import { InvalidRequestError } from '../../../packages/domain/errors.ts';
import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { commandContext } from '../request-command-context.ts';
import { deletedSchema, listOf } from '../schemas/common-schemas.ts';
import {
  advanceTestClockBody,
  createTestClockBody,
  listTestClocksQuery,
  testClockIdParams,
  testClockSchema,
} from '../schemas/test-clock-schemas.ts';
import type { Mode } from '../../../packages/domain/mode.ts';
import { testClocksCollection } from '../../../projections/test-clocks-projection.ts';

const tag = 'Test clocks';
const collection = testClocksCollection;

/** Live mode has no test clocks: every test clock endpoint answers 400 to a live key. */
function requireTestMode(auth: { mode: Mode }): void {
  if (auth.mode !== 'test') throw new InvalidRequestError('Test clocks exist only in test mode: use a test key');
}

export function testClockRoutes({ commands, reader }: ApiDependencies): AnyRouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/test-clocks',
      summary: 'Create a test clock (test mode only) frozen at frozenTime',
      tag,
      body: createTestClockBody,
      response: testClockSchema,
      async handler(request) {
        requireTestMode(request.auth);
        const outcome = await commands.testClocks.create(request.body, commandContext(request));
        return reader.getAfter(outcome.position, collection, outcome.id, request.auth);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/test-clocks/:testClockId',
      summary: 'Retrieve a test clock (status advancing while due work runs, then ready)',
      tag,
      params: testClockIdParams,
      response: testClockSchema,
      handler: (request) => {
        requireTestMode(request.auth);
        return reader.get(collection, request.params.testClockId, request.auth);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/test-clocks/:testClockId/advance',
      summary:
        "Advance a test clock to frozenTime: runs, in time order, the work that falls due for its customers' subscriptions",
      tag,
      params: testClockIdParams,
      body: advanceTestClockBody,
      response: testClockSchema,
      async handler(request) {
        requireTestMode(request.auth);
        await reader.get(collection, request.params.testClockId, request.auth);
        const outcome = await commands.testClocks.advance(
          request.params.testClockId,
          request.body.frozenTime,
          commandContext(request),
        );
        return reader.getAfter(outcome.position, collection, outcome.id, request.auth);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/test-clocks/:testClockId',
      summary: 'Delete a test clock (soft delete); its customers stay frozen at its last time',
      tag,
      params: testClockIdParams,
      response: deletedSchema,
      async handler(request) {
        requireTestMode(request.auth);
        await reader.get(collection, request.params.testClockId, request.auth);
        const outcome = await commands.testClocks.delete(request.params.testClockId, commandContext(request));
        await reader.caughtUp(outcome.position);
        return { id: outcome.id };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/test-clocks',
      summary: 'List test clocks, newest first',
      tag,
      query: listTestClocksQuery,
      response: listOf(testClockSchema),
      handler: (request) => {
        requireTestMode(request.auth);
        const { deleted, ...page } = request.query;
        return reader.list(collection, request.auth, page, { _deleted: deleted ?? false });
      },
    }),
  ];
}
