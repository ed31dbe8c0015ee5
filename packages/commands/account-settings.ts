import { accountDecider } from '../domain/account/account-decider.ts';
import { accountStream, type AccountSettings } from '../domain/account/account-events.ts';
import { NotFoundError } from '../domain/errors.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CommandContext } from './command-context.ts';
import type { Tenant } from '../domain/tenant.ts';

/** Account events live in test mode by convention (see createAccount): one stream serves both modes. */
export const accountTenant = (accountId: string): Tenant => ({ accountId, mode: 'test' });

/** Changes an account's settings (operators' CLI); answers the settings in force afterwards. */
export async function changeAccountSettings(
  aggregates: AggregateStore,
  accountId: string,
  settings: Partial<AccountSettings>,
  context: Omit<CommandContext, 'accountId' | 'mode'>,
): Promise<AccountSettings> {
  const result = await aggregates.execute(
    accountDecider,
    accountStream(accountId),
    { type: 'ChangeSettings', accountId, settings },
    { ...context, ...accountTenant(accountId) },
  );
  if (result.state.status === 'none') throw new NotFoundError('Account', accountId);
  return result.state.settings;
}

/**
 * The settings an account's commands follow now (read from its stream, not a read model; every
 * charge asks, so the stream's state is kept and only newer events are read).
 */
export async function accountSettings(aggregates: AggregateStore, accountId: string): Promise<AccountSettings> {
  const { state } = await aggregates.loadKept(accountDecider, accountStream(accountId), accountTenant(accountId));
  if (state.status === 'none') throw new NotFoundError('Account', accountId);
  return state.settings;
}
