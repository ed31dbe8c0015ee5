import type { BlacklistRule, BlacklistRuleCondition } from './blacklist-rule.ts';

/** What a charge creation request is screened on; null where the request does not tell. */
export interface ChargeScreening {
  /** Fingerprint of the card being charged, as the account sees it (per account and mode). */
  fingerprint: string | null;
  /**
   * The card's account-independent stored fingerprint: rules recorded before fingerprints were
   * per account and mode hold this form, and keep matching.
   */
  storedFingerprint?: string | null;
  ipAddress: string | null;
  /** Two-letter ISO code, any case. */
  ipCountry: string | null;
  email: string | null;
  userAgent: string | null;
  acceptLanguage: string | null;
  /** The charge's metadata. */
  metadata: Record<string, string>;
}

/**
 * The first rule (in the order given) that the request matches, or null. Matching is exact, except
 * that email addresses and country codes are compared case-insensitively; a metadata rule matches
 * when the request's metadata holds its key with exactly its value. Unknown values never match.
 */
export function findMatchingRule(rules: readonly BlacklistRule[], request: ChargeScreening): BlacklistRule | null {
  return rules.find((rule) => matches(rule, request)) ?? null;
}

function matches(condition: BlacklistRuleCondition, request: ChargeScreening): boolean {
  switch (condition.ruleType) {
    case 'fingerprint':
      return (
        request.fingerprint === condition.fingerprint ||
        (request.storedFingerprint != null && request.storedFingerprint === condition.fingerprint)
      );
    case 'ip_address':
      return request.ipAddress === condition.ipAddress;
    case 'ip_country':
      return request.ipCountry !== null && request.ipCountry.toUpperCase() === condition.ipCountry.toUpperCase();
    case 'metadata':
      // Own keys only: `constructor` or `__proto__` in a rule must not match every request.
      return (
        Object.hasOwn(request.metadata, condition.metadataKey) &&
        request.metadata[condition.metadataKey] === condition.metadataValue
      );
    case 'email':
      return request.email !== null && request.email.toLowerCase() === condition.email.toLowerCase();
    case 'user_agent':
      return request.userAgent === condition.userAgent;
    case 'accept_language':
      return request.acceptLanguage === condition.acceptLanguage;
  }
}
