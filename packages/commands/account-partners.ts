import { accountDecider, type AccountCommand } from '../domain/account/account-decider.ts';
import { accountStream } from '../domain/account/account-events.ts';
import { InvalidRequestError, NotFoundError } from '../domain/errors.ts';
import type { AggregateStore } from './aggregate-store.ts';
import { accountTenant } from './account-settings.ts';
import type { CommandContext } from './command-context.ts';

/** An account id as operators type it: `acct_` and letters or digits. */
const accountIdPattern = /^acct_[A-Za-z0-9]+$/;

/** Whether an account exists (read from its stream, not a read model). */
export async function accountExists(aggregates: AggregateStore, accountId: string): Promise<boolean> {
  if (!accountIdPattern.test(accountId)) return false;
  const { state } = await aggregates.load(accountDecider, accountStream(accountId), accountTenant(accountId));
  return state.status !== 'none';
}

/**
 * Changes an account's partner list (operators' CLI, `docs/operations.md`); answers the list
 * afterwards. Adding a partner already listed, or removing one that is not, records nothing.
 */
export async function changeAccountPartners(
  aggregates: AggregateStore,
  change: 'add' | 'remove',
  accountId: string,
  partnerId: string,
  context: Omit<CommandContext, 'accountId' | 'mode'>,
): Promise<string[]> {
  if (!accountIdPattern.test(partnerId))
    throw new InvalidRequestError(`Invalid parameter: partnerId must be an account id (acct_…)`, 'partnerId');
  const command: AccountCommand =
    change === 'add'
      ? { type: 'AddPartner', accountId, partnerId, partnerExists: await accountExists(aggregates, partnerId) }
      : { type: 'RemovePartner', accountId, partnerId };
  const result = await aggregates.execute(accountDecider, accountStream(accountId), command, {
    ...context,
    ...accountTenant(accountId),
  });
  if (result.state.status === 'none') throw new NotFoundError('Account', accountId);
  return result.state.partnerIds;
}

/** The accounts on an account's partner list, in the order they were added. */
export async function accountPartners(aggregates: AggregateStore, accountId: string): Promise<string[]> {
  const { state } = await aggregates.load(accountDecider, accountStream(accountId), accountTenant(accountId));
  if (state.status === 'none') throw new NotFoundError('Account', accountId);
  return state.partnerIds;
}
