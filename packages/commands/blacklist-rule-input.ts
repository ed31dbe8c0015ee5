import {
  allRuleAttributes,
  blacklistRuleTypes,
  conditionOf,
  isBlacklistRuleType,
  ruleAttributes,
  type BlacklistRule,
  type BlacklistRuleAttribute,
} from '../domain/blacklist/blacklist-rule.ts';
import { InvalidRequestError, missingParameter } from '../domain/errors.ts';
import { isValidCardNumber } from '../network/card-validation.ts';
import type { CardFingerprinter } from '../vault/card-fingerprint.ts';

/**
 * A rule as a client asks for it: `ruleType` plus the attribute(s) of that type. A fingerprint
 * rule may be given a `cardNumber` in place of the fingerprint.
 */
export type CreateBlacklistRuleInput = { ruleType: string; cardNumber?: string } & Partial<
  Record<BlacklistRuleAttribute, string>
>;

type InputField = BlacklistRuleAttribute | 'cardNumber';

/**
 * Turns the input into a complete rule: every attribute of its type present, none of another
 * type, a card number replaced by its fingerprint, the country code upper-cased. Messages name
 * parameters and never quote a value (it could be a card number).
 */
export function blacklistRuleFromInput(
  ruleId: string,
  input: CreateBlacklistRuleInput,
  fingerprinter: Pick<CardFingerprinter, 'fingerprint'>,
): BlacklistRule {
  const { ruleType } = input;
  if (!isBlacklistRuleType(ruleType))
    throw new InvalidRequestError(`Invalid parameter: ruleType must be one of: ${blacklistRuleTypes.join(', ')}`);
  const own: readonly InputField[] =
    ruleType === 'fingerprint' ? ['fingerprint', 'cardNumber'] : ruleAttributes[ruleType];
  for (const field of [...allRuleAttributes, 'cardNumber'] as const) {
    if (input[field] !== undefined && !own.includes(field)) {
      throw new InvalidRequestError(`Invalid parameter: ${field} does not apply to ruleType ${ruleType}`);
    }
  }

  const attributes: Record<string, string> = {};
  if (ruleType === 'fingerprint') {
    attributes.fingerprint = fingerprintAttribute(input, fingerprinter);
  } else {
    for (const name of ruleAttributes[ruleType]) {
      const value = input[name];
      if (value === undefined || value === '') throw missingParameter(name);
      // Stored canonical so that the rule renders as it matches.
      attributes[name] = name === 'ipCountry' ? value.toUpperCase() : value;
    }
  }
  const condition = conditionOf(ruleType, attributes);
  if (!condition) throw new InvalidRequestError(`Invalid request: incomplete ${ruleType} rule`);
  return { ruleId, ...condition };
}

/** Exactly one of `fingerprint` and `cardNumber` (spec: Blacklist); the number is only hashed. */
function fingerprintAttribute(
  input: CreateBlacklistRuleInput,
  fingerprinter: Pick<CardFingerprinter, 'fingerprint'>,
): string {
  const { fingerprint, cardNumber } = input;
  if (fingerprint !== undefined && cardNumber !== undefined) {
    throw new InvalidRequestError('Invalid request: give either fingerprint or cardNumber, not both');
  }
  if (fingerprint !== undefined && fingerprint !== '') return fingerprint;
  if (cardNumber === undefined || cardNumber === '')
    throw missingParameter('fingerprint', 'Give fingerprint or cardNumber.');
  // Trimmed only, like card intake does, so that the fingerprint equals the one of charged cards.
  const number = cardNumber.trim();
  if (!isValidCardNumber(number))
    throw new InvalidRequestError('Invalid parameter: cardNumber must be a valid card number');
  return fingerprinter.fingerprint(number);
}
