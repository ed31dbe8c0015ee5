/**
 * A blacklist rule: one condition a charge creation request is screened against (spec:
 * Blacklist rule). The spec names only the `fingerprint` attribute; the attribute names of the
 * other rule types are our decision (docs/api.md, Blacklist).
 */
export const blacklistRuleTypes = [
  'fingerprint',
  'ip_address',
  'ip_country',
  'metadata',
  'email',
  'user_agent',
  'accept_language',
] as const;

export type BlacklistRuleType = (typeof blacklistRuleTypes)[number];

/** The rule type and the attribute(s) of that type, exactly as the rule object renders them. */
export type BlacklistRuleCondition =
  | { ruleType: 'fingerprint'; fingerprint: string }
  | { ruleType: 'ip_address'; ipAddress: string }
  /** Two-letter ISO code, upper case. */
  | { ruleType: 'ip_country'; ipCountry: string }
  | { ruleType: 'metadata'; metadataKey: string; metadataValue: string }
  | { ruleType: 'email'; email: string }
  | { ruleType: 'user_agent'; userAgent: string }
  | { ruleType: 'accept_language'; acceptLanguage: string };

export type BlacklistRule = { ruleId: string } & BlacklistRuleCondition;

/** Every attribute a condition may carry, whatever its type. */
export type BlacklistRuleAttribute = Exclude<KeysOfEach<BlacklistRuleCondition>, 'ruleType'>;

type KeysOfEach<Union> = Union extends unknown ? keyof Union : never;

/** Which attributes each rule type has: all of them are required for that type, and only they. */
export const ruleAttributes: Readonly<Record<BlacklistRuleType, readonly BlacklistRuleAttribute[]>> = {
  fingerprint: ['fingerprint'],
  ip_address: ['ipAddress'],
  ip_country: ['ipCountry'],
  metadata: ['metadataKey', 'metadataValue'],
  email: ['email'],
  user_agent: ['userAgent'],
  accept_language: ['acceptLanguage'],
};

export const allRuleAttributes: readonly BlacklistRuleAttribute[] = [...new Set(Object.values(ruleAttributes).flat())];

export function isBlacklistRuleType(value: unknown): value is BlacklistRuleType {
  return typeof value === 'string' && (blacklistRuleTypes as readonly string[]).includes(value);
}

/**
 * Builds a condition from a rule type and a bag of string attributes (e.g. a stored document);
 * null when the type is unknown or an attribute of the type is missing. Other fields are ignored.
 */
export function conditionOf(ruleType: unknown, attributes: Record<string, unknown>): BlacklistRuleCondition | null {
  if (!isBlacklistRuleType(ruleType)) return null;
  const condition: Record<string, string> = { ruleType };
  for (const name of ruleAttributes[ruleType]) {
    const value = attributes[name];
    if (typeof value !== 'string') return null;
    condition[name] = value;
  }
  return condition as unknown as BlacklistRuleCondition;
}
