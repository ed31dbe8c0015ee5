/**
 * Child process for the vault's durability test: keeps several charges in flight, each storing a
 * card number in the vault and then appending an event that refers to it, and prints
 * `ack <stream id> <vault ref> <number>` once that append has been acknowledged.
 * Usage: node .tmp/test-programs/store-cards-until-killed.js <events file> <vault key hex> (built by build-service.ts)
 */
import { randomInt, randomUUID } from 'node:crypto';
import { SqliteEventStore } from '../../packages/eventstore/sqlite-event-store.ts';
import { EventFileVaultEntries } from '../../packages/vault/event-file-vault-entries.ts';
import { Vault } from '../../packages/vault/vault.ts';

const IN_FLIGHT = 8;

const [filePath, keyHex] = process.argv.slice(2);
if (!filePath || !keyHex) throw new Error('usage: store-cards-until-killed.ts <events file> <vault key hex>');

const events = new SqliteEventStore(filePath);
const vault = new Vault(new EventFileVaultEntries(events), Buffer.from(keyHex, 'hex'));

async function chargeForever(): Promise<never> {
  for (;;) {
    const number = `42424242${String(randomInt(0, 1e8)).padStart(8, '0')}`;
    const vaultRef = await vault.store('card_number', number);
    const streamId = `charge-${randomUUID()}`;
    await events.appendToStream(
      streamId,
      [
        {
          id: randomUUID(),
          type: 'ChargeProbed',
          data: { vaultRef },
          metadata: { accountId: 'acct_durability', mode: 'test', occurredAt: new Date().toISOString() },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    process.stdout.write(`ack ${streamId} ${vaultRef} ${number}\n`);
  }
}

await Promise.all(Array.from({ length: IN_FLIGHT }, chargeForever));
