import { everyDocument } from '../../packages/readstore/every-document.ts';
import type { Tenant } from '../../packages/domain/tenant.ts';
import type { BlacklistRule } from '../../packages/domain/blacklist/blacklist-rule.ts';
import type { ReadModels } from '../../packages/projection-runtime/read-models.ts';
import { blacklistRulesCollection } from '../../projections/blacklist-projection.ts';

/** Page size when reading every rule; the store's lists are paged, so we walk the pages. */
const PAGE_SIZE = 100;

/**
 * Every live (not deleted) blacklist rule of one account and mode, newest first, as the domain
 * matcher takes them: what a charge creation request is screened against.
 */
export async function liveBlacklistRules(readModels: ReadModels, tenant: Tenant): Promise<BlacklistRule[]> {
  const collection = readModels.collection(blacklistRulesCollection);
  const filter = { _accountId: tenant.accountId, _mode: tenant.mode, _deleted: false };
  return (await everyDocument(collection, { filter }, { pageSize: PAGE_SIZE })).map((doc) => {
    const { id, created: _c, objectType: _o, deleted: _d, _accountId, _mode, _seq, _deleted, ...condition } = doc;
    return { ruleId: id, ...condition };
  });
}
