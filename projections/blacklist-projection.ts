import { blacklistRuleView } from './views/blacklist-rule-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** `blacklist_rules`: GET /blacklist[/{id}] (filter: deleted) and the live rules charges are screened against. */
export const blacklistProjection = viewProjection(
  'blacklist',
  'blacklist_rules',
  scopedIndexes('_deleted'),
  blacklistRuleView,
);
