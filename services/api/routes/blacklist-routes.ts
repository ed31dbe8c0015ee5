import { defineRoute, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import { commandContext } from '../request-command-context.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { deletedSchema, listOf } from '../schemas/common-schemas.ts';
import {
  blacklistRuleIdParams,
  blacklistRuleSchema,
  createBlacklistRuleBody,
  listBlacklistRulesQuery,
} from '../schemas/blacklist-schemas.ts';
import { blacklistRulesCollection } from '../../../projections/blacklist-projection.ts';

const tag = 'Blacklist';
const collection = blacklistRulesCollection;

export function blacklistRoutes({ commands, reader }: ApiDependencies): AnyRouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/blacklist',
      summary: 'Create a blacklist rule: ruleType and the attribute(s) of that type',
      tag,
      body: createBlacklistRuleBody,
      response: blacklistRuleSchema,
      async handler(request) {
        const outcome = await commands.blacklist.create(request.body, commandContext(request));
        return reader.getAfter(outcome.position, collection, outcome.id, request.auth);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/blacklist/:ruleId',
      summary: 'Retrieve a blacklist rule (deleted rules are returned with deleted: true)',
      tag,
      params: blacklistRuleIdParams,
      response: blacklistRuleSchema,
      handler: (request) => reader.get(collection, request.params.ruleId, request.auth),
    }),
    defineRoute({
      method: 'delete',
      path: '/blacklist/:ruleId',
      summary: 'Delete a blacklist rule (soft delete: still readable with deleted: true, no longer applied)',
      tag,
      params: blacklistRuleIdParams,
      response: deletedSchema,
      async handler(request) {
        const outcome = await commands.blacklist.delete(request.params.ruleId, commandContext(request));
        // Once it answers, charges are no longer screened against the rule.
        await reader.getAfter(outcome.position, collection, outcome.id, request.auth);
        return { id: outcome.id };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/blacklist',
      summary: 'List blacklist rules, newest first',
      tag,
      query: listBlacklistRulesQuery,
      response: listOf(blacklistRuleSchema),
      handler: (request) => {
        const { deleted, ...page } = request.query;
        return reader.list(collection, request.auth, page, { _deleted: deleted ?? false });
      },
    }),
  ];
}
