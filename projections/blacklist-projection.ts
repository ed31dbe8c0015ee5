import { objectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { blacklistRuleView, type BlacklistRuleDoc } from './views/blacklist-rule-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** GET /blacklist[/{id}] (filter: deleted) and the live rules charges are screened against. */
export const blacklistRulesCollection = objectCollection<BlacklistRuleDoc>(
  'blacklist_rules',
  'Blacklist rule',
  scopedIndexes('_deleted'),
);

/** `blacklist`: one document per blacklist rule. */
export const blacklistProjection = viewProjection('blacklist', blacklistRulesCollection, blacklistRuleView);
