import type { CreatedRange } from '../packages/readstore/document-store.ts';

/**
 * The due lists: internal collections of work the worker's scheduler scans (webhook attempts,
 * network outcomes, pending payment-method charges), one document per piece of work until it is
 * done, so a scan costs what is due, not what was ever done.
 *
 * Lists are newest first by (`created`, `_seq`); a due list stores both negated (`created` = -due
 * second, `_seq` = -log order), so that a plain list gives the earliest due first, the oldest event
 * first within a second, and `created >= -now` selects what is due by now.
 */
export interface DueListKeys {
  created: number;
  _seq: number;
}

/** The sort keys of work due at `dueAtMs` (ms since epoch), recorded at log position `order`. */
export const dueListKeys = (dueAtMs: number, order: number): DueListKeys => ({
  created: -Math.floor(dueAtMs / 1000),
  _seq: -order,
});

/** The `created` range of work due by `nowMs` (whole seconds: callers check `dueAtMs`). */
export const dueBy = (nowMs: number): CreatedRange => ({ gte: -Math.floor(nowMs / 1000) });
