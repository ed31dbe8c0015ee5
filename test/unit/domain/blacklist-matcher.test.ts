import { expect } from 'chai';
import { findMatchingRule, type ChargeScreening } from '../../../packages/domain/blacklist/blacklist-matcher.ts';
import type { BlacklistRule } from '../../../packages/domain/blacklist/blacklist-rule.ts';

/** A request that tells nothing; each case fills in what it screens on. */
const nothing: ChargeScreening = {
  fingerprint: null,
  ipAddress: null,
  ipCountry: null,
  email: null,
  userAgent: null,
  acceptLanguage: null,
  metadata: {},
};

const cases: { name: string; rule: BlacklistRule; request: Partial<ChargeScreening>; matches: boolean }[] = [
  {
    name: 'fingerprint: same',
    rule: { ruleId: 'blr_f', ruleType: 'fingerprint', fingerprint: 'fpA' },
    request: { fingerprint: 'fpA' },
    matches: true,
  },
  {
    name: 'fingerprint: other',
    rule: { ruleId: 'blr_f', ruleType: 'fingerprint', fingerprint: 'fpA' },
    request: { fingerprint: 'fpB' },
    matches: false,
  },
  {
    name: 'fingerprint: case matters',
    rule: { ruleId: 'blr_f', ruleType: 'fingerprint', fingerprint: 'fpA' },
    request: { fingerprint: 'FPA' },
    matches: false,
  },
  {
    name: 'fingerprint: a rule recorded with the stored (account-independent) fingerprint still matches',
    rule: { ruleId: 'blr_f', ruleType: 'fingerprint', fingerprint: 'storedA' },
    request: { fingerprint: 'tenantA', storedFingerprint: 'storedA' },
    matches: true,
  },
  {
    name: 'fingerprint: neither the tenant nor the stored fingerprint',
    rule: { ruleId: 'blr_f', ruleType: 'fingerprint', fingerprint: 'storedB' },
    request: { fingerprint: 'tenantA', storedFingerprint: 'storedA' },
    matches: false,
  },
  {
    name: 'fingerprint: none given',
    rule: { ruleId: 'blr_f', ruleType: 'fingerprint', fingerprint: 'fpA' },
    request: {},
    matches: false,
  },
  {
    name: 'ip_address: same',
    rule: { ruleId: 'blr_i', ruleType: 'ip_address', ipAddress: '203.0.113.7' },
    request: { ipAddress: '203.0.113.7' },
    matches: true,
  },
  {
    name: 'ip_address: prefix only',
    rule: { ruleId: 'blr_i', ruleType: 'ip_address', ipAddress: '203.0.113.7' },
    request: { ipAddress: '203.0.113.70' },
    matches: false,
  },
  {
    name: 'ip_address: none given',
    rule: { ruleId: 'blr_i', ruleType: 'ip_address', ipAddress: '203.0.113.7' },
    request: {},
    matches: false,
  },
  {
    name: 'ip_country: same',
    rule: { ruleId: 'blr_c', ruleType: 'ip_country', ipCountry: 'PL' },
    request: { ipCountry: 'PL' },
    matches: true,
  },
  {
    name: 'ip_country: any case',
    rule: { ruleId: 'blr_c', ruleType: 'ip_country', ipCountry: 'PL' },
    request: { ipCountry: 'pl' },
    matches: true,
  },
  {
    name: 'ip_country: other',
    rule: { ruleId: 'blr_c', ruleType: 'ip_country', ipCountry: 'PL' },
    request: { ipCountry: 'DE' },
    matches: false,
  },
  {
    name: 'ip_country: none given',
    rule: { ruleId: 'blr_c', ruleType: 'ip_country', ipCountry: 'PL' },
    request: {},
    matches: false,
  },
  {
    name: 'metadata: key and value',
    rule: { ruleId: 'blr_m', ruleType: 'metadata', metadataKey: 'campaign', metadataValue: 'spam' },
    request: { metadata: { campaign: 'spam', other: 'x' } },
    matches: true,
  },
  {
    name: 'metadata: other value',
    rule: { ruleId: 'blr_m', ruleType: 'metadata', metadataKey: 'campaign', metadataValue: 'spam' },
    request: { metadata: { campaign: 'SPAM' } },
    matches: false,
  },
  {
    name: 'metadata: value under another key',
    rule: { ruleId: 'blr_m', ruleType: 'metadata', metadataKey: 'campaign', metadataValue: 'spam' },
    request: { metadata: { source: 'spam' } },
    matches: false,
  },
  {
    name: 'metadata: key absent',
    rule: { ruleId: 'blr_m', ruleType: 'metadata', metadataKey: 'campaign', metadataValue: 'spam' },
    request: {},
    matches: false,
  },
  {
    name: 'metadata: inherited keys do not count',
    rule: { ruleId: 'blr_m', ruleType: 'metadata', metadataKey: 'toString', metadataValue: 'x' },
    request: {},
    matches: false,
  },
  {
    name: 'email: same',
    rule: { ruleId: 'blr_e', ruleType: 'email', email: 'fraud@example.com' },
    request: { email: 'fraud@example.com' },
    matches: true,
  },
  {
    name: 'email: any case',
    rule: { ruleId: 'blr_e', ruleType: 'email', email: 'Fraud@Example.com' },
    request: { email: 'fraud@EXAMPLE.COM' },
    matches: true,
  },
  {
    name: 'email: other',
    rule: { ruleId: 'blr_e', ruleType: 'email', email: 'fraud@example.com' },
    request: { email: 'fraud@example.org' },
    matches: false,
  },
  {
    name: 'email: none given',
    rule: { ruleId: 'blr_e', ruleType: 'email', email: 'fraud@example.com' },
    request: {},
    matches: false,
  },
  {
    name: 'user_agent: same',
    rule: { ruleId: 'blr_u', ruleType: 'user_agent', userAgent: 'BadBot/1.0' },
    request: { userAgent: 'BadBot/1.0' },
    matches: true,
  },
  {
    name: 'user_agent: case matters',
    rule: { ruleId: 'blr_u', ruleType: 'user_agent', userAgent: 'BadBot/1.0' },
    request: { userAgent: 'badbot/1.0' },
    matches: false,
  },
  {
    name: 'user_agent: substring only',
    rule: { ruleId: 'blr_u', ruleType: 'user_agent', userAgent: 'BadBot' },
    request: { userAgent: 'BadBot/1.0' },
    matches: false,
  },
  {
    name: 'accept_language: same',
    rule: { ruleId: 'blr_a', ruleType: 'accept_language', acceptLanguage: 'xx-XX' },
    request: { acceptLanguage: 'xx-XX' },
    matches: true,
  },
  {
    name: 'accept_language: other',
    rule: { ruleId: 'blr_a', ruleType: 'accept_language', acceptLanguage: 'xx-XX' },
    request: { acceptLanguage: 'en-US' },
    matches: false,
  },
  {
    name: 'accept_language: none given',
    rule: { ruleId: 'blr_a', ruleType: 'accept_language', acceptLanguage: 'xx-XX' },
    request: {},
    matches: false,
  },
];

describe('blacklist matcher', () => {
  for (const { name, rule, request, matches } of cases) {
    it(`${name} → ${matches ? 'match' : 'no match'}`, () => {
      expect(findMatchingRule([rule], { ...nothing, ...request })).to.equal(matches ? rule : null);
    });
  }

  it('returns the first matching rule in the order given', () => {
    const byEmail: BlacklistRule = { ruleId: 'blr_1', ruleType: 'email', email: 'a@example.com' };
    const byCountry: BlacklistRule = { ruleId: 'blr_2', ruleType: 'ip_country', ipCountry: 'PL' };
    const unrelated: BlacklistRule = { ruleId: 'blr_3', ruleType: 'fingerprint', fingerprint: 'fpZ' };
    const request = { ...nothing, email: 'a@example.com', ipCountry: 'PL' };
    expect(findMatchingRule([unrelated, byCountry, byEmail], request)).to.equal(byCountry);
    expect(findMatchingRule([byEmail, byCountry], request)).to.equal(byEmail);
  });

  it('matches nothing without rules', () => {
    expect(findMatchingRule([], { ...nothing, email: 'a@example.com' })).to.equal(null);
  });
});
