import { createAccount } from '../packages/commands/account-commands.ts';
import { newId } from '../packages/ids/object-id.ts';
import type { Platform } from './platform.ts';

/**
 * On the very first start of an empty embedded installation, open a default account and show its
 * keys once on standard output (not in the JSON log: keys never go to logs).
 */
export async function createDefaultAccountIfEmpty(platform: Platform, print: (text: string) => void): Promise<void> {
  if ((await platform.events.headPosition()) > 0) return;
  const { position, ...keys } = await createAccount(platform, 'Default account', {
    actor: 'system:startup',
    requestId: newId('req'),
    now: () => new Date(),
  });
  if (position !== null) await platform.readModels.waitFor(position, platform.config.readYourWritesTimeoutMs);
  print(`Default account created. Its API keys are shown only this once:\n${JSON.stringify(keys)}\n`);
}
