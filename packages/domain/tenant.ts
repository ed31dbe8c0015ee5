import type { Mode } from './mode.ts';

/** Whose data it is: an account in one of its modes. Every event, read-model document and query belongs to one. */
export interface Tenant {
  accountId: string;
  mode: Mode;
}
