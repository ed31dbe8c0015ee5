import { createHash } from 'node:crypto';
import type { Tenant } from '../domain/tenant.ts';

/**
 * The fingerprint an account sees for a card in one mode: a hash of the card's stored keyed
 * fingerprint together with the account and mode. The same card gives the same value across an
 * account's customers, charges, tokens and blacklist rules in one mode, and unrelated values in
 * other accounts or the other mode, so accounts cannot link cardholders by comparing fingerprints.
 *
 * Events keep the account-independent keyed fingerprint (FINGERPRINT_KEY, never shown); this is
 * applied where the API shows a fingerprint and where the blacklist compares one. Without the
 * keyed fingerprint, which only the service knows, one account's value says nothing of another's.
 */
export function tenantFingerprint(storedFingerprint: string, tenant: Tenant): string {
  return createHash('sha256')
    .update(`card-fingerprint:${tenant.accountId}:${tenant.mode}:${storedFingerprint}`)
    .digest('base64url')
    .slice(0, 24);
}
