import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { SqliteDocumentStore } from '../../packages/readstore/sqlite-document-store.ts';
import { loadOrCreateKey } from '../../packages/vault/vault-key.ts';
import { RememberedPayers } from '../../services/api/checkout/remembered-payers.ts';
import type { Tenant } from '../../packages/domain/tenant.ts';

/**
 * The payer's mailbox for checkout's remembered cards. The service has no mail server, and in live
 * mode it shows the one-time code to nobody (`docs/checkout.md`, "Remember me"); a test of live
 * checkout therefore stands in for the mail: it issues the code as the service's code step does, on
 * the service's own state store (embedded profile) and with its key, and hands it over as a mail
 * would. Replaces a code issued before, as asking for a new code does.
 */
export async function codeMailedTo(dataDir: string, tenant: Tenant, email: string): Promise<string> {
  const vaultKey = loadOrCreateKey(undefined, dataDir, 'vault.key');
  const key = createHmac('sha256', vaultKey).update('derived:checkout-remembered-payers').digest();
  const store = new SqliteDocumentStore(join(dataDir, 'state.sqlite'));
  try {
    const payers = new RememberedPayers(
      store.collection('checkout_remembered_payers'),
      store.collection('checkout_confirmation_uses'),
      key,
    );
    const code = await payers.issueCode(tenant, email, new Date());
    if (code === null) throw new Error(`No card is remembered for ${email}`);
    return code;
  } finally {
    await store.close();
  }
}
