import { everyDocument } from '../../packages/readstore/every-document.ts';
import { activeCheckpoint } from '../../packages/projection-runtime/projection-state.ts';
import { accountsCollection, accountsProjection, type AccountDoc } from '../../projections/accounts-projection.ts';
import type { Platform } from '../platform.ts';

export interface AccountsListed {
  /** Newest first, as the read model lists them. */
  accounts: AccountDoc[];
  /** Events of the log the accounts read model has not applied yet (0 when it holds every account). */
  behind: number;
}

/**
 * Every merchant account, as the accounts read model holds it, and how far that model is behind
 * the log: an account opened since (by `accounts create` while no projector runs, say) is listed
 * once a projector has applied it, and the caller says so instead of leaving it out silently.
 */
export async function listAccounts(platform: Platform): Promise<AccountsListed> {
  const accounts = await everyDocument(platform.readModels.collection(accountsCollection));
  const applied = await activeCheckpoint(platform.readStore, accountsProjection.name);
  return { accounts, behind: Math.max(0, (await platform.events.headPosition()) - applied) };
}

/** An account's name as a terminal line may show it: control characters (a newline among them) as `?`. */
export function printableName(name: string): string {
  return name.replace(/[\p{Cc}]/gu, '?');
}
